package dev.cinchmcp.e2e;

import static dev.cinchmcp.testkit.Requires.Need.PRIVATE_TMP;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cinchmcp.testkit.CodeRunningApi;
import dev.cinchmcp.testkit.JarProcess;
import dev.cinchmcp.testkit.Requires;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Pictures and files out on the cinch backend, against a stand-in for the API that really runs the
 * code ({@link CodeRunningApi}): the frame travels in the answer's stdout, as it would at the
 * service, and a request for a program that draws nothing is what it was, byte for byte.
 */
@Requires(PRIVATE_TMP)
class PicturesCinchIT extends PictureCases {

  @RegisterExtension static final CodeRunningApi api = new CodeRunningApi();

  @Override
  Map<String, String> environment() throws Exception {
    return JarProcess.envFor(api.baseUrl());
  }

  @Test
  void aProgramThatDrawsNothingIsSentAsItIs() throws Exception {
    JsonNode result = run("print('no picture')", "python");
    assertEquals("no picture\n", result.path("structuredContent").path("stdout").asText());
    List<String> bodies = api.bodies();
    assertEquals(
        "{\"code\":\"print('no picture')\",\"language\":\"python\"}",
        bodies.get(bodies.size() - 1));
  }

  @Test
  void bothProtocolErasReturnTheSamePicturesAndWords() throws Exception {
    String code = PNG_PY + "png('same.png', 12, 9)\nprint('same')\n";
    JsonNode legacy = run(code, "python");
    jar()
        .send(
            "{\"jsonrpc\":\"2.0\",\"id\":\"modern\",\"method\":\"tools/call\",\"params\":{"
                + "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{},"
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"t\",\"version\":\"1\"}},"
                + "\"name\":\"execute_code\",\"arguments\":{\"code\":"
                + JarProcess.JSON.writeValueAsString(code)
                + "}}}");
    ObjectNode modern = (ObjectNode) jar().awaitReply("modern", ANSWER).path("result").deepCopy();
    assertEquals("complete", modern.remove("resultType").asText());
    modern.remove("_meta");
    assertEquals(2, modern.path("content").size(), brief(modern));
    assertEquals(normalised(legacy), normalised(modern));
  }

  private static String normalised(JsonNode result) {
    return result
        .toString()
        .replaceAll("[0-9]+ ms", "N ms")
        .replaceAll("\"durationMs\":[0-9]+", "");
  }

  @Test
  void aProgramThatMayDrawIsSentUnderTheLauncher() throws Exception {
    JsonNode result = runOk(PNG_PY + "png('a.png', 5, 5)\n", "python");
    List<String> bodies = api.bodies();
    String body = bodies.get(bodies.size() - 1);
    assertTrue(body.contains("cinch-mcp's input launcher"), body.substring(0, 200));
    assertFalse(body.contains("png('a.png'"), "the program travels base64-encoded");
  }
}
