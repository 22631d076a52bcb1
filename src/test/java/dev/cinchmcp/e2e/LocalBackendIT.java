package dev.cinchmcp.e2e;

import static dev.cinchmcp.testkit.Requires.Need.GVISOR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cinchmcp.testkit.JarProcess;
import dev.cinchmcp.testkit.Requires;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The built jar with no Cinch key: it serves from a local gVisor sandbox (runsc, installed by
 * .ci/run), says so on stderr, promises the interpreter versions it really has, and runs code.
 */
@Requires(GVISOR)
class LocalBackendIT {

  @Test
  void withoutAKeyTheJarRunsCodeInALocalGvisorSandbox() throws Exception {
    try (JarProcess jar = JarProcess.start(Map.of())) {
      jar.initialize();
      jar.send("{\"jsonrpc\":\"2.0\",\"id\":\"list\",\"method\":\"tools/list\"}");
      JsonNode tool =
          jar.awaitReply("list", Duration.ofSeconds(30)).path("result").path("tools").get(0);
      String description = tool.path("description").asText();
      assertTrue(description.contains("Node.js "), description);
      // Root on cgroup v1 here: every limit holds, and the description says so.
      assertTrue(
          description.contains("- 10 seconds, 256 MB of memory, 64 processes, half a CPU."),
          description);
      assertFalse(
          description.contains("Python 3.12 and Node 20"),
          "the local versions, not the service's: " + description);
      // What the machine has installed is offered, and named (.ci/run installs python3-numpy).
      assertTrue(
          description.contains("standard library, plus what this machine has installed under /usr"),
          description);
      if (Files.isDirectory(Path.of("/usr/lib/python3/dist-packages/numpy"))) {
        assertTrue(description.contains("(Python: numpy 1."), description);
      }
      String language =
          tool.path("inputSchema").path("properties").path("language").path("description").asText();
      assertTrue(
          language.contains("Node.js "), "the schema names the local versions too: " + language);

      jar.send(JarProcess.call(1, "print(6 * 7)"));
      JsonNode result = jar.awaitReply(1, Duration.ofSeconds(30)).path("result");
      assertFalse(result.path("isError").asBoolean(true), result.toString());
      assertEquals("42\n", result.path("structuredContent").path("stdout").asText());
      assertEquals("local", result.path("structuredContent").path("backend").asText());

      jar.send(
          "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"execute_code\","
              + "\"arguments\":{\"code\":\"console.log([1,2,3].map(x => x * 2).join(','))\",\"language\":\"javascript\"}}}");
      JsonNode js = jar.awaitReply(2, Duration.ofSeconds(30)).path("result");
      assertEquals("2,4,6\n", js.path("structuredContent").path("stdout").asText(), js.toString());

      jar.closeStdin();
      assertEquals(0, jar.waitForExit(Duration.ofSeconds(20)));
      String stderr = jar.stderr();
      assertTrue(stderr.contains("ready on stdio: backend local"), stderr);
      assertTrue(stderr.contains("limits held: 10 s, 256 MB, 64 processes, half a CPU"), stderr);
      // Ready (and answering initialize) before the gVisor self-test is over, not after it.
      assertTrue(
          stderr.indexOf("ready on stdio") < stderr.indexOf("self-test passed"),
          "the server waited for the self-test before it was ready:\n" + stderr);
      jar.assertProtocolClean();
    }
  }
}
