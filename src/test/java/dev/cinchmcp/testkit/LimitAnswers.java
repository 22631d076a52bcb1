package dev.cinchmcp.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;

/** What a backend answers when a program meets the limits set to 2 s and 128 MB (tools/call). */
public final class LimitAnswers {

  /** Sleeps 5 s after printing "before". */
  public static final String SLEEPER = "import time\nprint('before', flush=True)\ntime.sleep(5)";

  /** Takes 200 MB. */
  public static final String BIG = "b = bytearray(200 * 2**20)\nprint('200 MB ok')";

  private LimitAnswers() {}

  /** The execute_code tool's description, as tools/list gives it. */
  public static String toolDescription(JarProcess jar) throws Exception {
    jar.send("{\"jsonrpc\":\"2.0\",\"id\":\"list\",\"method\":\"tools/list\"}");
    return jar.awaitReply("list", Duration.ofSeconds(30))
        .path("result")
        .path("tools")
        .get(0)
        .path("description")
        .asText();
  }

  /** The {@link #SLEEPER}'s result: timed out at 2 s, what it printed before kept. */
  public static void assertTimedOut(JsonNode result) {
    JsonNode out = result.path("structuredContent");
    assertTrue(out.path("timedOut").asBoolean(), result.toString());
    assertEquals("before\n", out.path("stdout").asText(), result.toString());
    assertTrue(out.path("summary").asText().contains("2 s"), result.toString());
  }

  /** The {@link #BIG} program's result: refused or killed for its memory. */
  public static void assertMemoryRefused(JsonNode result) {
    String stderr = result.path("structuredContent").path("stderr").asText();
    assertEquals("", result.path("structuredContent").path("stdout").asText(), result.toString());
    assertTrue(
        stderr.contains("more than its 128 MB of memory") || stderr.contains("MemoryError"),
        result.toString());
  }
}
