package dev.cinchmcp.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

/** What a sandbox held to 2 seconds and 128 MB answers, whichever backend runs it. */
public final class LimitReplies {

  /** The program {@link #assertMemoryHeld} expects an answer to. */
  public static final String ALLOCATES_200_MB = "b = bytearray(200 * 2**20)\nprint('200 MB ok')";

  private LimitReplies() {}

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
