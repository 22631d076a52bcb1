package dev.cinchmcp.backend.cinch;

import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;

/**
 * What one answer of the API says: a run (with the key masked in all it holds), a failure ({@link
 * ApiErrors}), or a 429 to retry after a wait. Reading it is the only blocking part of a call, and
 * short: the body is already arriving.
 */
final class ApiAnswer {

  /** Wait this long after a 429 that names no Retry-After. */
  static final Duration DEFAULT_RETRY_WAIT = Duration.ofSeconds(1);

  /** The most of an error body that is read, for its message. */
  private static final int ERROR_BODY_LIMIT = 16 * 1024;

  /** What an answer says. */
  sealed interface Outcome {}

  /** The program ran: here is its result. */
  record Ran(RunResult result) implements Outcome {}

  /** No run: the failure that says why, its words not yet masked as a whole. */
  record Failed(RunFailure failure) implements Outcome {}

  /** A 429: the API asks to wait this long before the next attempt. */
  record RateLimited(Duration retryIn) implements Outcome {}

  private ApiAnswer() {}

  /**
   * Reads the answer from {@code in}, the response's body, which the caller closes.
   *
   * @param backend the backend's name, for the result
   */
  static Outcome read(
      HttpResponse<?> response,
      InputStream in,
      Program program,
      Redactor redactor,
      Clock clock,
      String backend)
      throws IOException {
    int status = response.statusCode();
    if (status == 200) {
      return run(in, program, redactor, backend);
    }
    if (status == 429) {
      BoundedBody.skip(in);
      return new RateLimited(
          RetryAfter.parse(response.headers().firstValue("Retry-After").orElse(null), clock)
              .orElse(DEFAULT_RETRY_WAIT));
    }
    String text = redactor.redactCut(BoundedBody.read(in, ERROR_BODY_LIMIT));
    return new Failed(ApiErrors.forStatus(status, text));
  }

  private static Outcome run(InputStream in, Program program, Redactor redactor, String backend)
      throws IOException {
    try {
      RunResult run =
          RunAnswerReader.read(new InputStreamReader(in, StandardCharsets.UTF_8), program.out());
      return new Ran(
          new RunResult(
              redactor.cappedSafe(run.stdout()),
              redactor.cappedSafe(run.stderr()),
              run.exitCode(),
              run.timedOut(),
              run.durationMs(),
              backend,
              redactor.files(run.files())));
    } catch (RunAnswerReader.NotARun e) {
      String apiMessage = e.apiMessage() == null ? "" : redactor.redactCut(e.apiMessage());
      return new Failed(
          ApiErrors.speaksOfCredits(apiMessage)
              ? ApiErrors.creditsExhausted(ApiErrors.apiMessage(apiMessage))
              : ApiErrors.notARun(e.getMessage(), redactor.redactCut(e.excerpt())));
    }
  }
}
