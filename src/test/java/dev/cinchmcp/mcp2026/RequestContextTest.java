package dev.cinchmcp.mcp2026;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.spec.McpSchema.LoggingLevel;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every required key of a request's {@code _meta}, and what a client is told when one is wrong. */
class RequestContextTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> SUPPORTED = ServerInfo.SUPPORTED_VERSIONS;

  private static JsonNode params(String json) throws Exception {
    return JSON.readTree(json);
  }

  @Test
  void aCompleteContextIsRead() throws Exception {
    RequestContext c =
        RequestContext.read(
            params(
                "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                    + "\"io.modelcontextprotocol/clientCapabilities\":{\"roots\":{}},"
                    + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"c\",\"version\":\"1\"},"
                    + "\"io.modelcontextprotocol/logLevel\":\"warning\",\"progressToken\":3}}"),
            SUPPORTED);
    assertEquals("2026-07-28", c.protocolVersion());
    assertTrue(c.clientCapabilities().has("roots"));
    assertEquals(LoggingLevel.WARNING, c.logLevel());
    assertTrue(c.wantsLog(LoggingLevel.ERROR));
    assertTrue(c.wantsLog(LoggingLevel.WARNING));
    assertFalse(c.wantsLog(LoggingLevel.INFO));
  }

  @Test
  void withoutALogLevelNoLogMessageIsWanted() throws Exception {
    RequestContext c =
        RequestContext.read(
            params(
                "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                    + "\"io.modelcontextprotocol/clientCapabilities\":{}}}"),
            SUPPORTED);
    assertNull(c.logLevel());
    assertFalse(c.wantsLog(LoggingLevel.EMERGENCY));
  }

  @Test
  void clientInfoIsNeverRequiredNorChecked() throws Exception {
    RequestContext.read(
        params(
            "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{},"
                + "\"io.modelcontextprotocol/clientInfo\":\"not an object\"}}"),
        SUPPORTED);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "no params | | \"params\"",
        "params not an object | [] | \"params\"",
        "no _meta | {} | \"params._meta\"",
        "_meta not an object | {\"_meta\":1} | \"params._meta\"",
        "no version | {\"_meta\":{\"io.modelcontextprotocol/clientCapabilities\":{}}} | params._meta[\"io.modelcontextprotocol/protocolVersion\"] is required",
        "version a number | {\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":20260728,\"io.modelcontextprotocol/clientCapabilities\":{}}} | (got a number)",
        "no capabilities | {\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}} | params._meta[\"io.modelcontextprotocol/clientCapabilities\"] is required",
        "capabilities an array | {\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":[]}} | (got an array)",
        "capabilities null | {\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":null}} | (got null)",
        "unknown log level | {\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{},\"io.modelcontextprotocol/logLevel\":\"loud\"}} | params._meta[\"io.modelcontextprotocol/logLevel\"] must be one of",
      })
  void aWrongKeyIsInvalidParamsNamingIt(String why, String params, String named) throws Exception {
    ProtocolError e =
        assertThrows(
            ProtocolError.class,
            () -> RequestContext.read(params == null ? null : params(params), SUPPORTED));
    assertEquals(-32602, e.code(), why);
    assertTrue(e.getMessage().contains(named), e.getMessage());
    assertFalse(e.error().containsKey("data"));
  }

  @ParameterizedTest
  @CsvSource({"1900-01-01", "2025-11-25", "2026-07-29", "''"})
  void anUnservedVersionIsUnsupportedWithTheListAndTheRequest(String version) throws Exception {
    ProtocolError e =
        assertThrows(
            ProtocolError.class,
            () ->
                RequestContext.read(
                    params(
                        "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\""
                            + version
                            + "\"}}"),
                    SUPPORTED));
    assertEquals(-32022, e.code());
    assertEquals(
        Map.of("supported", SUPPORTED, "requested", version), e.error().get("data"), "data");
  }
}
