package dev.cinchmcp.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.time.Duration;

/** What a server whose sandbox is held to 2 seconds and 128 MB says, whichever backend runs it. */
public final class LimitReplies {

  /** The program {@link #assertMemoryHeld} expects an answer to. */
  public static final String ALLOCATES_200_MB = "b = bytearray(200 * 2**20)\nprint('200 MB ok')";

  private LimitReplies() {}

  /** The description of the server's one tool, as {@code tools/list} gives it. */
  public static String toolDescription(JarProcess jar) throws IOException, InterruptedException {
    jar.send("{\"jsonrpc\":\"2.0\",\"id\":\"list\",\"method\":\"tools/list\"}");
    return jar.awaitReply("list", Duration.ofSeconds(30))
        .path("result")
        .path("tools")
        .get(0)
        .path("description")
        .asText();
  }

  /** A program that printed "before" and slept past 2 s: timed out, its output kept. */
  public static void assertTimedOutAt2Seconds(JsonNode result) {
    JsonNode out = result.path("structuredContent");
    assertTrue(out.path("timedOut").asBoolean(), result.toString());
    assertEquals("before\n", out.path("stdout").asText(), result.toString());
    assertTrue(out.path("summary").asText().contains("2 s"), result.toString());
  }

  /** {@link #ALLOCATES_200_MB} under 128 MB: stopped, and told why. */
  public static void assertMemoryHeld(JsonNode result) {
    String stderr = result.path("structuredContent").path("stderr").asText();
    assertEquals("", result.path("structuredContent").path("stdout").asText(), result.toString());
    assertTrue(
        stderr.contains("more than its 128 MB of memory") || stderr.contains("MemoryError"),
        result.toString());
  }
}
