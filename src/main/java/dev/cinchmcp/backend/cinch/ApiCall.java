package dev.cinchmcp.backend.cinch;

import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunFailure.Kind;
import dev.cinchmcp.backend.RunListener;
import dev.cinchmcp.backend.RunListener.Level;
import dev.cinchmcp.backend.RunResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One tool call at the API: up to {@link CinchApiRunner#MAX_ATTEMPTS} requests, one deadline, one
 * result, its cancellation. No thread waits: only the short read of an answer holds one.
 */
final class ApiCall {

  private static final Logger log = LoggerFactory.getLogger(ApiCall.class);

  /** Wait this long after a 429 that names no Retry-After. */
  private static final Duration DEFAULT_RETRY_WAIT = Duration.ofSeconds(1);

  /** The most of an error body that is read, for its message: an error page can be any size. */
  private static final int ERROR_BODY_LIMIT = 16 * 1024;

  /** Longer than any deadline; keeps Duration arithmetic far from overflow. */
  private static final long MAX_SECONDS = 999_999_999_999_999L;

  final CompletableFuture<RunResult> result = new CompletableFuture<>();
  private final CinchApiRunner runner;
  private final Program program;
  private final RunListener listener;
  private final long deadlineMillis;
  private final String body;
  private volatile CompletableFuture<HttpResponse<InputStream>> inFlight;
  private volatile InputStream answer;

  private final long leftMillis; // to the deadline: less than the timeout if the call waited

  ApiCall(CinchApiRunner runner, Program program, RunListener listener, long leftMillis) {
    this.runner = runner;
    this.program = program;
    this.listener = listener;
    this.leftMillis = leftMillis;
    this.deadlineMillis = runner.clock.millis() + leftMillis;
    this.body = CinchApiRunner.body(program);
  }

  void start() {
    var deadline =
        runner.timers.schedule(() -> offTimer(this::timedOut), leftMillis, TimeUnit.MILLISECONDS);
    result.whenComplete(
        (r, e) -> {
          deadline.cancel(false);
          if (result.isCancelled()) {
            abort(); // the client cancelled the call: drop the request now
          }
        });
    attempt(1);
  }

  private void attempt(int n) {
    if (result.isDone()) {
      return;
    }
    long remaining = deadlineMillis - runner.clock.millis();
    if (remaining <= 0) {
      timedOut();
      return;
    }
    var request = runner.request(body);
    quietly(() -> listener.sent(n));
    Thread caller = Thread.currentThread();
    var sent = runner.http.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream());
    inFlight = sent;
    sent.whenComplete(
        (response, error) -> {
          if (error != null) {
            endOnExchangeError(error);
            return;
          }
          answer = response.body();
          if (result.isDone()) {
            abort();
          } else if (Thread.currentThread() != caller) {
            handle(n, response); // on the client's executor thread already: no further hand-off
          } else {
            // Completed before the callback was attached: never read a body on the caller's
            // thread (for the server, the one that reads stdin).
            try {
              runner.readers.execute(() -> handle(n, response));
            } catch (RuntimeException rejected) { // the server is shutting down
              abort();
              fail(ApiErrors.abandoned());
            }
          }
        });
  }

  /** Reads one answer (a run, a 429 to retry, or a failure): short, the body is arriving. */
  private void handle(int attempt, HttpResponse<InputStream> response) {
    try (InputStream in = response.body()) {
      int status = response.statusCode();
      if (status == 200) {
        ran(in);
      } else if (status == 429) {
        in.readNBytes(64 * 1024); // what is left of a small body, so the connection can be reused
        String header = response.headers().firstValue("Retry-After").orElse(null);
        retryAfter429(attempt, retryAfter(header, runner.clock).orElse(DEFAULT_RETRY_WAIT));
      } else {
        String body = new String(in.readNBytes(ERROR_BODY_LIMIT), StandardCharsets.UTF_8);
        RunFailure failure = ApiErrors.forStatus(status, runner.redactor.redactCut(body));
        if (failure.kind() == Kind.KEY_REFUSED) {
          String message = "The Cinch API refused the API key (HTTP %d): check CINCH_API_KEY.";
          quietly(() -> listener.log(Level.ERROR, message.formatted(status)));
        }
        fail(failure);
      }
    } catch (IOException e) {
      endOnExchangeError(e);
    }
  }

  private void ran(InputStream in) throws IOException {
    Redactor redactor = runner.redactor;
    try {
      var body = new InputStreamReader(in, StandardCharsets.UTF_8);
      result.complete(RunAnswerReader.read(body, program.out(), redactor));
    } catch (RunAnswerReader.NotARun e) {
      String apiMessage = e.apiMessage == null ? "" : redactor.redactCut(e.apiMessage);
      fail(ApiErrors.notARun(e.getMessage(), redactor.redactCut(e.excerpt), apiMessage));
    }
  }

  /** {@code Retry-After}: seconds or an HTTP date. */
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

  static String describe(Duration wait) {
    return "about " + Math.max(1, (wait.toMillis() + 999) / 1000) + " s";
  }

  private void retryAfter429(int attempt, Duration wait) {
    long remaining = deadlineMillis - runner.clock.millis();
    if (wait.toMillis() >= remaining) {
      // Waiting would outlast the call: say so rather than pass on whatever the API asked.
      fail(ApiErrors.rateLimitedPastDeadline(attempt, runner.timeout));
      return;
    }
    if (attempt >= CinchApiRunner.MAX_ATTEMPTS) {
      fail(ApiErrors.rateLimited(attempt, describe(wait)));
      return;
    }
    String message =
        "The Cinch API is rate limiting (HTTP 429); retrying in %d ms (attempt %d of %d)."
            .formatted(wait.toMillis(), attempt + 1, CinchApiRunner.MAX_ATTEMPTS);
    quietly(() -> listener.log(Level.WARNING, message));
    runner.timers.schedule(
        () -> offTimer(() -> attempt(attempt + 1)), wait.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void timedOut() {
    if (fail(ApiErrors.timedOut(runner.timeout))) {
      abort();
    }
  }

  /** Fails the call once (says if this did); the one way out for a failure, so masked here. */
  private boolean fail(RunFailure failure) {
    return result.completeExceptionally(
        new RunFailure(failure.reason(), runner.redactor.redact(failure.getMessage())));
  }

  private void abort() {
    var sent = inFlight;
    if (sent != null) {
      sent.cancel(true); // JDK 16+: cancelling sendAsync's future aborts the exchange
    }
    InputStream in = answer;
    if (in != null) {
      try {
        in.close(); // closing a response stream cancels the rest of its body
      } catch (IOException ignored) {
        // nothing left to do for a call that is over
      }
    }
  }

  /** Nothing when the call is over (the error is its echo); a read timeout is the call's. */
  private void endOnExchangeError(Throwable error) {
    Throwable cause = unwrap(error);
    if (cause instanceof CancellationException || result.isDone()) {
      return;
    }
    if (cause instanceof HttpTimeoutException && !(cause instanceof HttpConnectTimeoutException)) {
      timedOut();
      return;
    }
    log.debug("Request to the Cinch API failed: {}", runner.redactor.redact(cause.toString()));
    fail(ApiErrors.exchangeFailed(runner.where(), cause));
  }

  /** Off the one timer thread, which serves every deadline: what it sets off may block. */
  private void offTimer(Runnable action) {
    try {
      runner.readers.execute(action);
    } catch (RejectedExecutionException shuttingDown) {
      action.run();
    }
  }

  /** A listener cannot break a call: what it throws is logged and dropped. */
  private static void quietly(Runnable call) {
    try {
      call.run();
    } catch (RuntimeException e) {
      log.debug("A run listener failed: {}", e.toString());
    }
  }

  private static Throwable unwrap(Throwable t) {
    while (t instanceof CompletionException && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }
}
