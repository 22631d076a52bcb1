package dev.cinchmcp.backend.cinch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.RunFailure.Kind;
import org.junit.jupiter.api.Test;

/**
 * The wording rules behind the WireMock failure tests, at the edges that are awkward to reach over
 * HTTP.
 */
class ApiErrorsTest {

  @Test
  void apiMessagePrefersTheJsonErrorString() {
    assertEquals(
        "bad \"code\" / here",
        ApiErrors.apiMessage("{\"code\":17,\"error\":\"bad \\\"code\\\" \\/ here\"}"));
    assertEquals("nope", ApiErrors.apiMessage("{\"detail\":\"nope\"}"));
  }

  @Test
  void apiMessageStripsTagsAndCollapsesWhitespace() {
    assertEquals(
        "Oops It broke.",
        ApiErrors.apiMessage("<html>\n<h1>Oops</h1>\n\n<p>It   broke.</p></html>"));
  }

  @Test
  void apiMessageIsCutToAShortExcerpt() {
    String message = ApiErrors.apiMessage("z".repeat(10_000));
    assertEquals(ApiErrors.EXCERPT_LIMIT + 3, message.length());
    assertTrue(message.endsWith("..."));
  }

  @Test
  void apiMessageOfNothingIsEmpty() {
    assertEquals("", ApiErrors.apiMessage(null));
    assertEquals("", ApiErrors.apiMessage(" \n "));
  }

  @Test
  void statusDecidesBeforeWording() {
    // A refused key that mentions billing is still a refused key; a 429 about quota is still a rate
    // limit.
    assertEquals(
        Kind.KEY_REFUSED,
        ApiErrors.forStatus(401, "{\"error\":\"billing account not found\"}").kind());
    assertEquals(Kind.CREDITS_EXHAUSTED, ApiErrors.forStatus(402, "").kind());
    assertEquals(Kind.REQUEST_REFUSED, ApiErrors.forStatus(413, "").kind());
    assertTrue(ApiErrors.forStatus(413, "").getMessage().contains("smaller"));
  }

  @Test
  void rateLimitedCountsAttemptsInWords() {
    assertTrue(ApiErrors.rateLimited(1, "about 5 s").getMessage().contains("after 1 attempt."));
    assertTrue(ApiErrors.rateLimited(3, "").getMessage().contains("after 3 attempts"));
    assertTrue(ApiErrors.rateLimited(3, "").getMessage().contains("a little"));
  }
}
