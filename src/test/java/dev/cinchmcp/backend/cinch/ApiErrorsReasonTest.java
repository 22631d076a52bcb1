package dev.cinchmcp.backend.cinch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunFailure.Ran;
import dev.cinchmcp.backend.RunFailure.Reason;
import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a failure's words say about whether anything ran is what its {@link Reason} says. */
class ApiErrorsReasonTest {

  @Test
  void theWordsAgreeWithTheReason() {
    List<RunFailure> failures =
        List.of(
            ApiErrors.forStatus(401, ""),
            ApiErrors.forStatus(402, ""),
            ApiErrors.forStatus(413, ""),
            ApiErrors.forStatus(503, ""),
            ApiErrors.forStatus(302, ""),
            ApiErrors.rateLimited(3, ""),
            ApiErrors.rateLimitedPastDeadline(1, Duration.ofSeconds(20)),
            ApiErrors.notARun("not JSON", "<html>", ""),
            ApiErrors.timedOut(Duration.ofSeconds(20)),
            ApiErrors.exchangeFailed("the Cinch API at x", new ConnectException()),
            ApiErrors.exchangeFailed("the Cinch API at x", new IOException("reset")));
    for (RunFailure f : failures) {
      String said = f.reason().ran() == Ran.NOTHING ? "Nothing ran." : "may or may not have run";
      assertTrue(f.getMessage().contains(said), f.reason() + ": " + f.getMessage());
    }
  }

  @Test
  void aRedirectRanNothingAndIsAnUnexpectedAnswer() {
    RunFailure f = ApiErrors.forStatus(307, "");
    assertEquals(Reason.REDIRECTED, f.reason());
    assertEquals(RunFailure.Kind.UNEXPECTED_ANSWER, f.kind());
    assertEquals(Ran.NOTHING, f.reason().ran());
  }

  @Test
  void aBrokenConnectionMayHaveRunUnlikeARefusedOne() {
    assertEquals(
        Reason.CONNECTION_LOST, ApiErrors.exchangeFailed("x", new IOException("reset")).reason());
    assertEquals(
        Reason.API_UNREACHABLE, ApiErrors.exchangeFailed("x", new ConnectException()).reason());
  }
}
