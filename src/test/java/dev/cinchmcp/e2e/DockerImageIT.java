package dev.cinchmcp.e2e;

import static dev.cinchmcp.testkit.Requires.Need.ENGINE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cinchmcp.testkit.DockerCli;
import dev.cinchmcp.testkit.JarProcess;
import dev.cinchmcp.testkit.Requires;
import dev.cinchmcp.testkit.TestEngine;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Images on a real engine with no registry: one removed while the server runs is looked for again,
 * and a pull that cannot happen says what to do, with its progress in the client's log.
 */
@Requires(ENGINE)
class DockerImageIT {

  @Test
  void aRemovedImageIsPulledAgainAndAFailedPullSaysWhatToDo() throws Exception {
    String image = "cinchmcp-it-image:" + ProcessHandle.current().pid();
    DockerCli.docker("tag", TestEngine.image(), image);
    Map<String, String> env = new HashMap<>(DockerCli.jarEnvironment("runc"));
    env.put("CINCH_DOCKER_PYTHON_IMAGE", image);
    try (JarProcess jar = JarProcess.start(env)) {
      jar.initialize();
      jar.send(JarProcess.call(1, "print(6 * 7)"));
      assertEquals("42\n", text(jar.awaitReply(1, Duration.ofSeconds(60)), "stdout"));

      DockerCli.docker("rmi", image); // the tag only: the test image stays
      jar.send(JarProcess.call(2, "print(6 * 7)"));
      String gone = text(jar.awaitReply(2, Duration.ofSeconds(60)), null);
      assertTrue(gone.contains("has no image " + image + " any more"), gone);

      // No registry here: the pull fails, and says how to get the image.
      jar.send(JarProcess.call(3, "print(6 * 7)", "p3"));
      String failed = text(jar.awaitReply(3, Duration.ofSeconds(120)), null);
      assertTrue(failed.contains("could not get the image " + image), failed);
      assertTrue(failed.contains("docker pull " + image), failed);
      assertTrue(failed.contains("CINCH_DOCKER_PYTHON_IMAGE"), failed);
      assertTrue(jar.stderr().contains("Pulling image " + image), jar.stderr());
      assertTrue(
          jar.received().stream()
              .anyMatch(
                  m ->
                      "notifications/message".equals(m.path("method").asText())
                          && m.path("params").path("data").asText().contains("Pulling image")),
          "the pull is told in the client's log: " + jar.received());
      jar.assertProtocolClean();
    } finally {
      try {
        DockerCli.docker("rmi", "-f", image);
      } catch (java.io.IOException goneAlready) {
        // removed by the test itself
      }
    }
  }

  /** The structured field, or the text of an error result. */
  private static String text(JsonNode reply, String field) {
    JsonNode result = reply.path("result");
    if (field != null) {
      return result.path("structuredContent").path(field).asText();
    }
    return result.path("content").get(0).path("text").asText();
  }
}
