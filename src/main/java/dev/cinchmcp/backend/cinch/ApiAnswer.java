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
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * What one answer of the API says: a run (with the key masked in all it holds), a failure ({@link
 * ApiErrors}), or a 429 to retry after a wait. Reading it is the only blocking part of a call, and
 * short: the body is already arriving.
 */
final class ApiAnswer {

  /** Wait this long after a 429 that names no Retry-After. */
  static final Duration DEFAULT_RETRY_WAIT = Duration.ofSeconds(1);

  /** The most of an error body that is read, for its message: an error page can be any size. */
  private static final int ERROR_BODY_LIMIT = 16 * 1024;

  /** Longer than any deadline; keeps Duration arithmetic far from overflow. */
  private static final long MAX_SECONDS = 999_999_999_999_999L;

  sealed interface Outcome {}

  /** The program ran: here is its result. */
  record Ran(RunResult result) implements Outcome {}

  /** No run: the failure that says why, its words not yet masked as a whole. */
  record Failed(RunFailure failure) implements Outcome {}

  /** A 429: the API asks to wait this long before the next attempt. */
  record RateLimited(Duration retryIn) implements Outcome {}

  private ApiAnswer() {}

  /** Reads the answer from {@code in}, the response's body, which the caller closes. */
  static Outcome read(
      HttpResponse<?> response, InputStream in, Program program, CinchApiRunner runner)
      throws IOException {
    int status = response.statusCode();
    if (status == 200) {
      return run(in, program, runner.redactor, runner.name());
    }
    if (status == 429) {
      in.readNBytes(64 * 1024); // what is left of a small body, so the connection can be reused
      String header = response.headers().firstValue("Retry-After").orElse(null);
      return new RateLimited(retryAfter(header, runner.clock).orElse(DEFAULT_RETRY_WAIT));
    }
    String text =
        runner.redactor.redactCut(
            new String(in.readNBytes(ERROR_BODY_LIMIT), StandardCharsets.UTF_8));
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

  /** The {@code Retry-After} header: a number of seconds, or an HTTP date. */
  static Optional<Duration> retryAfter(String header, Clock clock) {
    if (header == null || header.isBlank()) {
      return Optional.empty();
    }
    String value = header.strip();
    if (value.matches("\\d+")) {
      // Any number of digits: a huge wait is still a wait (longer than any deadline), not "none".
      return Optional.of(
          Duration.ofSeconds(value.length() > 15 ? MAX_SECONDS : Long.parseLong(value)));
    }
    try {
      ZonedDateTime when = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME);
      Duration wait = Duration.between(clock.instant(), when.toInstant());
      return Optional.of(wait.isNegative() ? Duration.ZERO : wait);
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  /** "about 30 s", for a message that tells the model how long to wait. */
  static String describe(Duration wait) {
    return "about " + Math.max(1, (wait.toMillis() + 999) / 1000) + " s";
  }
}
