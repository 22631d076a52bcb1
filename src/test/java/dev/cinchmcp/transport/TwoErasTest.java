package dev.cinchmcp.transport;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cinchmcp.testkit.FakeCinchApi;
import dev.cinchmcp.testkit.InProcessServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The whole server, in process, speaking both protocol eras on one stream: 2026-07-28 requests
 * judged each on its own {@code _meta}, 2025 sessions as before, and a probe that does not settle
 * the connection.
 */
class TwoErasTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String META =
      "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
          + "\"io.modelcontextprotocol/clientCapabilities\":{},"
          + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}";
  private static final String OK_BODY =
      "{\"stdout\":\"42\\n\",\"stderr\":\"\",\"exitCode\":0,\"timedOut\":false,\"durationMs\":5}";

  @RegisterExtension
  final FakeCinchApi api =
      new FakeCinchApi()
          .answering(OK_BODY)
          .answeringWhen("badkey", aResponse().withStatus(401).withBody("{\"error\":\"bad key\"}"));

  private List<JsonNode> serve(String... lines) throws IOException {
    String input = String.join("\n", lines) + "\n";
    byte[] out =
        InProcessServer.serve(
            api, "cinch_live_unit_two_eras", input.getBytes(StandardCharsets.UTF_8));
    return InProcessServer.messages(new String(out, StandardCharsets.UTF_8));
  }

  private static String request(Object id, String method, String params) {
    String quoted = id instanceof String ? "\"" + id + "\"" : String.valueOf(id);
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + quoted
        + ",\"method\":\""
        + method
        + "\""
        + (params == null ? "" : ",\"params\":" + params)
        + "}";
  }

  private static String modern(Object id, String method, String fields) {
    return request(id, method, "{" + META + (fields.isEmpty() ? "" : "," + fields) + "}");
  }

  private static String call(String code) {
    return "\"name\":\"execute_code\",\"arguments\":{\"code\":\"" + code + "\"}";
  }

  private static JsonNode reply(List<JsonNode> messages, String id) {
    return find(messages, m -> id.equals(m.path("id").asText()) && !m.has("method"), id);
  }

  private static JsonNode find(List<JsonNode> messages, Predicate<JsonNode> p, String what) {
    return messages.stream()
        .filter(p)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + what + " in " + messages));
  }

  private static final String INIT_2025 =
      request(
          "init",
          "initialize",
          "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
              + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}");
  private static final String INITIALIZED =
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

  @Test
  void discoverSaysWhatTheServerSpeaksInThe2026Shape() throws IOException {
    JsonNode r = reply(serve(modern("d", "server/discover", "")), "d").path("result");
    assertEquals("complete", r.path("resultType").asText());
    assertEquals("[\"2026-07-28\"]", r.path("supportedVersions").toString());
    assertTrue(r.path("capabilities").path("tools").isObject());
    assertTrue(r.path("ttlMs").canConvertToLong() && r.path("ttlMs").asLong() >= 0);
    assertTrue(List.of("public", "private").contains(r.path("cacheScope").asText()));
    assertFalse(r.path("instructions").asText().isEmpty());
    assertEquals(
        "cinch-mcp",
        r.at("/_meta/io.modelcontextprotocol~1serverInfo/name").asText(),
        r.toString());
    assertFalse(r.has("protocolVersion"));
    assertFalse(r.has("serverInfo"));
  }

  @Test
  void listAndCallNeedNoHandshakeAndGiveWhatA2025CallGives() throws IOException {
    List<JsonNode> modern =
        serve(modern(0, "tools/list", ""), modern(1, "tools/call", call("print(6 * 7)")));
    JsonNode list = reply(modern, "0").path("result");
    assertEquals("complete", list.path("resultType").asText());
    assertTrue(list.has("ttlMs") && list.has("cacheScope"), list.toString());
    JsonNode tool = list.path("tools").get(0);
    assertEquals("execute_code", tool.path("name").asText());
    assertEquals("object", tool.path("inputSchema").path("type").asText());
    assertTrue(tool.path("outputSchema").isObject());
    assertFalse(tool.has("execution"), "execution is 2025-11-25 only");

    List<JsonNode> legacy =
        serve(
            INIT_2025,
            INITIALIZED,
            request(0, "tools/list", null),
            request(1, "tools/call", "{" + call("print(6 * 7)") + "}"));
    JsonNode legacyList = reply(legacy, "0").path("result");
    assertEquals(legacyList.path("tools"), list.path("tools"), "the same tool in both eras");

    ObjectNode call = (ObjectNode) reply(modern, "1").path("result").deepCopy();
    assertEquals("complete", call.remove("resultType").asText());
    JsonNode meta = call.remove("_meta");
    assertEquals(
        "cinch-mcp", meta.path("io.modelcontextprotocol/serverInfo").path("name").asText());
    JsonNode legacyCall = reply(legacy, "1").path("result");
    assertFalse(legacyCall.has("resultType"));
    assertEquals(legacyCall, call, "the same text, structured content and isError");
    assertEquals("42\n", call.path("structuredContent").path("stdout").asText());
  }

  @Test
  void everyRequestIsJudgedOnItsOwnEnvelope() throws IOException {
    String bad = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2099-01-01\"}";
    List<JsonNode> messages =
        serve(
            modern("ok", "server/discover", ""),
            request("v1", "tools/list", "{" + bad + "}"),
            modern("ok2", "tools/list", ""),
            request("v2", "tools/call", "{" + bad + "," + call("print(1)") + "}"),
            request("v3", "server/discover", "{" + bad + "}"),
            request(
                "caps",
                "tools/list",
                "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}"),
            request("nometa", "server/discover", null));
    assertEquals("complete", reply(messages, "ok").at("/result/resultType").asText());
    assertEquals("complete", reply(messages, "ok2").at("/result/resultType").asText());
    for (String id : List.of("v1", "v2", "v3")) {
      JsonNode error = reply(messages, id).path("error");
      assertEquals(-32022, error.path("code").asInt(), id + ": " + error);
      assertEquals("[\"2026-07-28\"]", error.at("/data/supported").toString());
      assertEquals("2099-01-01", error.at("/data/requested").asText());
    }
    JsonNode caps = reply(messages, "caps").path("error");
    assertEquals(-32602, caps.path("code").asInt());
    assertTrue(caps.path("message").asText().contains("clientCapabilities"), caps.toString());
    assertEquals(-32602, reply(messages, "nometa").at("/error/code").asInt());
  }

  @Test
  void methodsThe2026RevisionRemovedAreNotFoundInThatEra() throws IOException {
    List<JsonNode> messages =
        serve(
            modern("i", "initialize", "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{}"),
            modern("p", "ping", ""),
            modern("l", "logging/setLevel", "\"level\":\"info\""),
            modern("r", "resources/list", ""),
            modern("t", "tools/call", "\"name\":\"other_tool\",\"arguments\":{}"),
            modern("s", "tools/call", "\"name\":42"),
            request("legacy-ping", "ping", null));
    for (String id : List.of("i", "p", "l", "r")) {
      assertEquals(-32601, reply(messages, id).at("/error/code").asInt(), id);
    }
    assertTrue(reply(messages, "l").at("/error/message").asText().contains("logLevel"));
    JsonNode unknown = reply(messages, "t").path("error");
    assertEquals(-32602, unknown.path("code").asInt());
    assertTrue(unknown.path("message").asText().contains("execute_code"));
    assertTrue(reply(messages, "s").at("/error/message").asText().contains("params.name"));
    assertTrue(reply(messages, "legacy-ping").path("result").isObject(), "2025 ping as before");
    assertEquals(0, api.getAllServeEvents().size(), "nothing ran");
  }

  @Test
  void aProbeDoesNotSettleTheConnection() throws IOException {
    List<JsonNode> messages =
        serve(
            modern("probe", "server/discover", ""),
            INIT_2025,
            INITIALIZED,
            request(1, "tools/call", "{" + call("print(1)") + "}"),
            modern(2, "tools/call", call("print(2)")));
    JsonNode init = reply(messages, "init").path("result");
    assertEquals("2025-11-25", init.path("protocolVersion").asText());
    assertEquals("cinch-mcp", init.at("/serverInfo/name").asText());
    assertFalse(init.has("resultType"));
    assertFalse(reply(messages, "1").path("result").has("resultType"));
    assertEquals("complete", reply(messages, "2").at("/result/resultType").asText());
  }

  @Test
  void each2025RevisionIsNegotiatedAsBefore() throws IOException {
    for (String version : List.of("2025-11-25", "2025-06-18", "2025-03-26")) {
      JsonNode init =
          reply(
                  serve(
                      request(
                          "init",
                          "initialize",
                          "{\"protocolVersion\":\""
                              + version
                              + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}")),
                  "init")
              .path("result");
      assertEquals(version, init.path("protocolVersion").asText());
    }
  }

  @Test
  void logMessagesOnlyForARequestThatAskedAndOnlyAtItsLevel() throws IOException {
    String token = "\"progressToken\":\"tok\"";
    List<JsonNode> messages =
        serve(
            modern("quiet", "tools/call", call("badkey")),
            request(
                "loud",
                "tools/call",
                "{"
                    + META.replace(
                        "}}", "},\"io.modelcontextprotocol/logLevel\":\"error\"," + token + "}")
                    + ","
                    + call("badkey")
                    + "}"),
            request(
                "critical",
                "tools/call",
                "{"
                    + META.replace("}}", "},\"io.modelcontextprotocol/logLevel\":\"critical\"}")
                    + ","
                    + call("badkey")
                    + "}"));
    for (String id : List.of("quiet", "loud", "critical")) {
      assertTrue(reply(messages, id).at("/result/isError").asBoolean(), id);
    }
    List<JsonNode> logs =
        messages.stream()
            .filter(m -> "notifications/message".equals(m.path("method").asText()))
            .toList();
    assertEquals(
        1, logs.size(), "one error, for the one request that asked at that level: " + logs);
    assertEquals("error", logs.get(0).at("/params/level").asText());
    JsonNode progress =
        find(
            messages,
            m -> "notifications/progress".equals(m.path("method").asText()),
            "progress notification");
    assertEquals("tok", progress.at("/params/progressToken").asText());
  }

  @Test
  void the2026RequestsAreAnsweredAtTheEndOfInputWithoutAnySession() throws IOException {
    // No initialize at all: 2025 requests would be told they never ran; these run.
    List<JsonNode> messages =
        serve(modern("a", "tools/call", call("print(1)")), modern("b", "tools/list", ""));
    assertFalse(reply(messages, "a").at("/result/isError").asBoolean(true));
    assertEquals("complete", reply(messages, "b").at("/result/resultType").asText());
  }
}
