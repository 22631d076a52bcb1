package dev.cinchmcp.mcp2026;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cinchmcp.config.Settings;
import dev.cinchmcp.server.CinchMcpServer;
import dev.cinchmcp.transport.EarlyInput;
import dev.cinchmcp.transport.FirstLineHandOver;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A {@code server/discover} answered before the server is built gets exactly the bytes the ordinary
 * way writes for it, and anything the early answer cannot be sure of goes the ordinary way,
 * answered once.
 */
class EarlyDiscoverTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Claude Code 2.1.332's opening, as it writes it. */
  private static final String CLAUDE_CODE =
      "{\"method\":\"server/discover\",\"params\":{\"_meta\":{"
          + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
          + "\"io.modelcontextprotocol/clientCapabilities\":{\"roots\":{\"listChanged\":true},"
          + "\"elicitation\":{\"form\":{},\"url\":{}}},"
          + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"claude-code\",\"version\":\"2.1.332\"}}},"
          + "\"jsonrpc\":\"2.0\",\"id\":\"server-discover-probe-1\"}";

  private static final String META =
      "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
          + "\"io.modelcontextprotocol/clientCapabilities\":{}";

  private static String discover(String id, String meta) {
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + id
        + ",\"method\":\"server/discover\",\"params\":{\"_meta\":{"
        + meta
        + "}}}";
  }

  private static EarlyDiscover early() {
    return ServerInfo.earlyDiscover();
  }

  /** Every line the whole server writes for {@code lines} (no backend call is made). */
  private static List<String> serve(String... lines) {
    Settings settings =
        Settings.fromEnvironment(
            Map.of(
                "CINCH_API_KEY", "cinch_live_unit_early", "CINCH_BASE_URL", "http://127.0.0.1:9"));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    String input = String.join("\n", lines) + "\n";
    // As the command line serves: the first line may be answered before the server is built.
    InputStream in =
        EarlyInput.answerEarly(
            new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
            out,
            FirstLineHandOver.NONE);
    new CinchMcpServer(settings).serve(in, out);
    List<String> written = new ArrayList<>();
    for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
      if (!line.isEmpty()) {
        written.add(line);
      }
    }
    return written;
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        CLAUDE_CODE,
        "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"server/discover\",\"params\":{\"_meta\":{"
            + META
            + "}}}",
        " { \"jsonrpc\" : \"2.0\" , \"id\" : 0 , \"method\" : \"server/discover\" ,"
            + " \"params\" : { \"_meta\" : { "
            + META
            + " , \"vendor/x\" : [1, -2.5e3, true, null, \"\\u00e9\\n\"] } } }\r",
        "{\"jsonrpc\":\"2.0\",\"id\":\"a b/c\",\"method\":\"server/discover\",\"params\":{\"_meta\":{"
            + META
            + ",\"progressToken\":3}}}",
      })
  void anEarlyAnswerIsTheOrdinaryOneByteForByte(String line) {
    byte[] answer = early().answer(line.getBytes(StandardCharsets.UTF_8));
    assertNotNull(answer, line);
    // The server answers the first line early; the same request again (another id) goes the
    // ordinary way, which the early answer must equal.
    String again = line.replaceFirst("\"id\"\\s*:\\s*(\"[^\"]*\"|\\d+)", "\"id\":\"again\"");
    List<String> written = serve(line, again);
    assertEquals(2, written.size(), written.toString());
    String earlyLine = new String(answer, StandardCharsets.US_ASCII);
    assertEquals(earlyLine, written.get(0) + "\n");
    String id =
        earlyLine.substring(earlyLine.indexOf("\"id\":") + 5, earlyLine.indexOf(",\"result\""));
    assertEquals(written.get(0).replace("\"id\":" + id, "\"id\":\"again\""), written.get(1));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        // another version: -32022, with the supported list
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":{"
            + "\"io.modelcontextprotocol/protocolVersion\":\"2027-01-01\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}",
        // a key missing or mistyped: -32602
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":{"
            + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":{"
            + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":[]}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{}}",
        // a log level (checked by the ordinary way), other params, other top-level members
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":{"
            + META
            + ",\"io.modelcontextprotocol/logLevel\":\"loud\"}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":{"
            + META
            + "},\"x\":1}}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":{"
            + META
            + "}},\"x\":1}",
        // not a discover, or not a request
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
            + META
            + "}}}",
        "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":{"
            + META
            + "}}}",
        "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\"}]",
        // ids the ordinary way must judge or re-escape
        "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"server/discover\",\"params\":{\"_meta\":{"
            + META
            + "}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"server/discover\",\"params\":{\"_meta\":{"
            + META
            + "}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":-1,\"method\":\"server/discover\",\"params\":{\"_meta\":{"
            + META
            + "}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":012,\"method\":\"server/discover\",\"params\":{\"_meta\":{"
            + META
            + "}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":\"a\\\"b\",\"method\":\"server/discover\",\"params\":{\"_meta\":{"
            + META
            + "}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":\"\",\"method\":\"server/discover\",\"params\":{\"_meta\":{"
            + META
            + "}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":\"caf\u00e9\",\"method\":\"server/discover\",\"params\":{\"_meta\":{"
            + META
            + "}}}",
        // keys written twice or with escapes, broken JSON, anything after the object
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"method\":\"server/discover\",\"params\":{\"_meta\":{"
            + META
            + "}}}",
        "{\"jsonrpc\":\"2.0\",\"\\u0069d\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":{"
            + META
            + "}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":{"
            + META
            + ",\"v\":[1,]}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":{"
            + META
            + "}}} {}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":{"
            + META
            + ",\"v\":\"tab\there\"}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":{"
            + META
            + ",\"v\":[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":{"
            + META
            + "}}",
      })
  void anythingElseGoesTheOrdinaryWayAndIsAnsweredOnce(String line) throws IOException {
    assertNull(early().answer(line.getBytes(StandardCharsets.UTF_8)), line);
    List<String> written = serve(line);
    assertEquals(1, written.size(), written.toString());
    JsonNode reply = JSON.readTree(written.get(0));
    assertTrue(reply.has("result") || reply.has("error"), reply.toString());
  }

  @Test
  void aRequestNearTheLimitsOfJacksonsParserGoesTheOrdinaryWay() throws IOException {
    anythingElseGoesTheOrdinaryWayAndIsAnsweredOnce(
        discover("1", META + ",\"n\":1" + "0".repeat(1000)));
    anythingElseGoesTheOrdinaryWayAndIsAnsweredOnce(
        discover("1", META + ",\"" + "k".repeat(60_000) + "\":1"));
  }

  @Test
  void aDiscoverWithoutIdIsANotificationAndGetsNoAnswer() {
    String line =
        "{\"jsonrpc\":\"2.0\",\"method\":\"server/discover\",\"params\":{\"_meta\":{"
            + META
            + "}}}";
    assertNull(early().answer(line.getBytes(StandardCharsets.UTF_8)));
    assertEquals(List.of(), serve(line));
  }
}
