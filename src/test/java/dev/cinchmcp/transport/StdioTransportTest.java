package dev.cinchmcp.transport;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cinchmcp.testkit.FakeCinchApi;
import dev.cinchmcp.testkit.InProcessServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The whole server, in process, fed a byte stream on "stdin": each malformed shape gets its
 * JSON-RPC error, and the valid request after it is still answered before {@code serve} returns.
 */
class StdioTransportTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CALL =
      "{\"jsonrpc\":\"2.0\",\"id\":\"last\",\"method\":\"tools/call\",\"params\":"
          + "{\"name\":\"execute_code\",\"arguments\":{\"code\":\"print(6 * 7)\"}}}\n";

  @RegisterExtension
  final FakeCinchApi api =
      new FakeCinchApi()
          .answering(
              "{\"stdout\":\"42\\n\",\"stderr\":\"\",\"exitCode\":0,\"timedOut\":false,\"durationMs\":3}");

  private List<JsonNode> serve(byte[] input) throws IOException {
    return InProcessServer.messages(serveRaw(input)); // throws if any line is not JSON
  }

  /** What the server wrote on stdout for this input, as text (checked to be valid UTF-8). */
  private String serveRaw(byte[] input) throws IOException {
    return InProcessServer.strictUtf8(InProcessServer.serve(api, "cinch_live_unit", input));
  }

  private static byte[] bytes(String... parts) {
    return String.join("", parts).getBytes(StandardCharsets.UTF_8);
  }

  private static JsonNode lastReply(List<JsonNode> messages) {
    JsonNode last = messages.get(messages.size() - 1);
    assertEquals(
        "last",
        last.path("id").asText(),
        "the valid call after the bad input must be answered: " + messages);
    assertEquals("42\n", last.path("result").path("structuredContent").path("stdout").asText());
    return last;
  }

  private void assertErrorThenAnswered(String badLine, int code, boolean nullId)
      throws IOException {
    List<JsonNode> messages = serve(bytes(InProcessServer.INIT, badLine, "\n", CALL));
    JsonNode error = messages.get(1);
    assertEquals(
        code, error.path("error").path("code").asInt(), "for input " + badLine + ": " + messages);
    if (nullId) {
      assertTrue(error.get("id").isNull(), "the id must be null when it cannot be read");
    }
    lastReply(messages);
  }

  /**
   * Each bad line gets its JSON-RPC error (with a null id where the id cannot be read), and the
   * valid call after it is still answered.
   */
  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "not JSON is a parse error | '{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": ' | -32700 | true",
        "not JSON is a parse error | hello | -32700 | true",
        "not JSON is a parse error | \u00ff\u00fe garbage | -32700 | true",
        "a batch is an invalid request | [{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}] | -32600 | true",
        "a batch is an invalid request | [] | -32600 | true",
        "a non-object is an invalid request | \"just a string\" | -32600 | true",
        "a non-object is an invalid request | 12345 | -32600 | true",
        "a non-object is an invalid request | null | -32600 | true",
        "an object that is not a message is an invalid request | {} | -32600 | true",
        "an object that is not a message is an invalid request | {\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"} | -32600 | true",
        "an object that is not a message is an invalid request | {\"jsonrpc\":\"2.0\",\"id\":5,\"method\":7} | -32600 | false",
        "an object that is not a message is an invalid request | {\"id\":6,\"method\":\"ping\"} | -32600 | false",
        "params that are not an object are invalid params | {\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\",\"params\":\"x\"} | -32602 | false",
        "an unknown method is method-not-found at once | {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/templates/list\"} | -32601 | false"
      })
  void aBadLineGetsItsErrorAndTheNextCallIsAnswered(
      String what, String badLine, int code, boolean nullId) throws IOException {
    assertErrorThenAnswered(badLine, code, nullId);
  }

  @Test
  void blankLinesAndCarriageReturnsAreSkipped() throws IOException {
    List<JsonNode> messages =
        serve(
            bytes(InProcessServer.INIT, "\n", "   \n", "\r\n", "\t\n", CALL.replace("\n", "\r\n")));
    assertEquals(2, messages.size(), messages.toString());
    lastReply(messages);
  }

  @Test
  void overLongLineIsRejectedAndReadingGoesOn() throws IOException {
    byte[] huge = new byte[StdioTransport.MAX_LINE_BYTES + 10];
    java.util.Arrays.fill(huge, (byte) ' ');
    huge[0] = '{';
    ByteArrayOutputStream input = new ByteArrayOutputStream();
    input.write(bytes(InProcessServer.INIT));
    input.write(huge);
    input.write('\n');
    input.write(bytes(CALL));
    List<JsonNode> messages = serve(input.toByteArray());
    assertEquals(-32600, messages.get(1).path("error").path("code").asInt());
    assertTrue(messages.get(1).path("error").path("message").asText().contains("too long"));
    lastReply(messages);
  }

  @Test
  void lastLineWithoutNewlineIsStillRead() throws IOException {
    List<JsonNode> messages = serve(bytes(InProcessServer.INIT, CALL.strip()));
    lastReply(messages);
  }

  @Test
  void duplicateIdOfARunningRequestIsRefused() throws IOException {
    String slow =
        "{\"jsonrpc\":\"2.0\",\"id\":\"dup\",\"method\":\"tools/call\",\"params\":"
            + "{\"name\":\"execute_code\",\"arguments\":{\"code\":\"slow\"}}}\n";
    api.stubFor(
        post(urlEqualTo("/run"))
            .withRequestBody(com.github.tomakehurst.wiremock.client.WireMock.containing("slow"))
            .willReturn(
                aResponse().withFixedDelay(500).withBody("{\"stdout\":\"\",\"exitCode\":0}")));
    List<JsonNode> messages = serve(bytes(InProcessServer.INIT, slow, slow, CALL));
    long dupReplies = messages.stream().filter(m -> "dup".equals(m.path("id").asText())).count();
    assertEquals(2, dupReplies, messages.toString());
    assertTrue(
        messages.stream()
            .anyMatch(
                m ->
                    "dup".equals(m.path("id").asText())
                        && m.path("error").path("code").asInt() == -32600));
  }

  @Test
  void messageNestedTooDeeplyIsRefusedWithItsId() throws IOException {
    String nested = "[".repeat(900) + "]".repeat(900);
    assertErrorThenAnswered(
        "{\"jsonrpc\":\"2.0\",\"id\":41,\"method\":\"tools/call\",\"params\":{\"name\":"
            + "\"execute_code\",\"arguments\":{\"code\":\"print(1)\",\"x\":"
            + nested
            + "}}}",
        -32600,
        false);
    List<JsonNode> messages =
        serve(
            bytes(
                InProcessServer.INIT,
                "{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"ping\",\"params\":{\"a\":"
                    + nested
                    + "}}\n",
                CALL));
    assertEquals(42, messages.get(1).path("id").asInt());
    assertTrue(messages.get(1).path("error").path("message").asText().contains("nested more than"));
  }

  @Test
  void ordinaryNestingIsFine() throws IOException {
    String nested = "{\"a\":".repeat(20) + "1" + "}".repeat(20);
    List<JsonNode> messages =
        serve(
            bytes(
                InProcessServer.INIT,
                "{\"jsonrpc\":\"2.0\",\"id\":43,\"method\":\"ping\",\"params\":{\"_meta\":"
                    + nested
                    + "}}\n",
                CALL));
    assertTrue(messages.get(1).has("result"), messages.toString());
  }
}
