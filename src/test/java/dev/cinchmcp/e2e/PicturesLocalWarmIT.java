package dev.cinchmcp.e2e;

import static dev.cinchmcp.testkit.Requires.Need.GVISOR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cinchmcp.testkit.Await;
import dev.cinchmcp.testkit.Processes;
import dev.cinchmcp.testkit.Requires;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Pictures and files out on the local gVisor backend with its sandboxes started ahead of time (the
 * default): the cases of every backend, and one that is seen to run in a waiting sandbox.
 */
@Requires(GVISOR)
class PicturesLocalWarmIT extends PictureCases {

  @Override
  Map<String, String> environment() {
    return Map.of("CINCH_LOCAL_POOL", "1");
  }

  @Test
  void aWaitingSandboxHandsBackItsPictureToo() throws Exception {
    jar()
        .send(
            "{\"jsonrpc\":\"2.0\",\"id\":\"lvl\",\"method\":\"logging/setLevel\","
                + "\"params\":{\"level\":\"debug\"}}");
    jar().awaitReply("lvl", Duration.ofSeconds(10));
    // A sandbox is refilled once no call runs: try until a call finds one waiting.
    for (int attempt = 0; attempt < 20; attempt++) {
      long warmBefore = warmRuns();
      JsonNode result = run(PNG_PY + "png('warm.png', 30, 20)\nprint('warm?')\n", "python");
      assertFalse(result.path("isError").asBoolean(true), brief(result));
      assertEquals(1, images(result).size(), brief(result));
      assertEquals("warm?\n", result.path("structuredContent").path("stdout").asText());
      if (warmRuns() > warmBefore) {
        return;
      }
      // The server refills its sandbox once idle: its Sentry runs.
      Await.holdsWithin(
          () -> Processes.sentries(jar().process().pid()) >= 1, Duration.ofSeconds(5));
    }
    assertTrue(false, "no call found a sandbox waiting: " + jar().stderr());
  }

  private long warmRuns() {
    return jar().received().stream()
        .filter(m -> m.path("method").asText().equals("notifications/message"))
        .filter(m -> m.path("params").path("data").asText().contains("started ahead of time"))
        .count();
  }
}
