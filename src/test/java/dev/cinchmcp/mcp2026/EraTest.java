package dev.cinchmcp.mcp2026;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The era of each message, by the 2026-07-28 backward-compatibility rules. */
class EraTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @ParameterizedTest(name = "{0} {1} -> modern {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "server/discover | | true",
        "server/discover | {} | true",
        "server/discover | {\"_meta\":{}} | true",
        "tools/list | {\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}} | true",
        // a mistyped version still claims the era: the request then gets -32602 naming the key
        "tools/call | {\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":7}} | true",
        "ping | {\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}} | true",
        "notifications/cancelled | {\"requestId\":1,\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}} | true",
        "initialize | {\"protocolVersion\":\"2025-11-25\",\"capabilities\":{}} | false",
        "tools/list | | false",
        "tools/list | {} | false",
        "tools/call | {\"_meta\":{\"progressToken\":1}} | false",
        // only the version names the era; capabilities alone do not
        "tools/call | {\"_meta\":{\"io.modelcontextprotocol/clientCapabilities\":{}}} | false",
        "tools/call | {\"_meta\":\"io.modelcontextprotocol/protocolVersion\"} | false",
        "ping | | false",
      })
  void decidedPerMessage(String method, String params, boolean modern) throws Exception {
    JsonNode p = params == null ? null : JSON.readTree(params);
    assertEquals(modern, StatelessServer.isModern(method, p));
  }
}
