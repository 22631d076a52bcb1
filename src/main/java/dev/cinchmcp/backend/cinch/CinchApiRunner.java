package dev.cinchmcp.backend.cinch;

import dev.cinchmcp.backend.CodeRunner;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunFailure.Kind;
import dev.cinchmcp.backend.RunListener;
import dev.cinchmcp.backend.RunListener.Level;
import dev.cinchmcp.backend.RunResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs programs at the Cinch API: {@code POST {base}/run} with the key as a bearer token.
 *
 * <p>One call holds no thread while it waits: the request goes out with {@code sendAsync}, and only
 * the short read of an answer holds one: the HTTP client's executor thread that delivered the
 * response (or one of {@code readers}, should it come before the callback was attached). Everything
 * about one call (its attempts, its deadline, its cancellation) lives in a {@link Call}.
 */
public final class CinchApiRunner implements CodeRunner, AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(CinchApiRunner.class);

  /** At most this many attempts when the API says 429; a run refused with 429 never ran. */
  static final int MAX_ATTEMPTS = 3;

  /** Wait this long after a 429 that names no Retry-After. */
  static final Duration DEFAULT_RETRY_WAIT = Duration.ofSeconds(1);

  private final URI runUri;
  private final String bearer;
  private final Duration timeout;
  private final String userAgent;
  private final HttpClient http;
  private final Executor readers;
  private final ScheduledExecutorService timers;
  private final Redactor redactor;
  private final Clock clock;

  /**
   * @param runUri the endpoint, {@code {base}/run}
   * @param apiKey the key; kept only in the Authorization header and the redactor
   * @param timeout the longest a call waits for its answer, retries included
   * @param http the one shared client; it must not follow redirects
   * @param readers where answers are read (blocking reads of a body that is already arriving)
   * @param timers for deadlines and retry waits
   */
  public CinchApiRunner(
      URI runUri,
      String apiKey,
      Duration timeout,
      String userAgent,
      HttpClient http,
      Executor readers,
      ScheduledExecutorService timers,
      Clock clock) {
    this.runUri = runUri;
    this.bearer = "Bearer " + apiKey;
    this.timeout = timeout;
    this.userAgent = userAgent;
    this.http = http;
    this.readers = readers;
    this.timers = timers;
    this.redactor = new Redactor(apiKey);
    this.clock = clock;
  }

  /**
   * The client this runner expects: no redirects; on plain http, HTTP/1.1 (no h2c upgrade dance)
   * and no TLS set-up at all ({@link PlainHttp}); its own tasks run where they arise ({@link
   * #ITS_OWN_THREAD}).
   */
  public static HttpClient newHttpClient(URI base, Duration connectTimeout) {
    return newHttpClient(base, connectTimeout, null);
  }

  /** The same with this TLS context for https ({@code null}: the JDK's default); for tests. */
  static HttpClient newHttpClient(URI base, Duration connectTimeout, SSLContext tls) {
    boolean plain = "http".equalsIgnoreCase(base.getScheme());
    HttpClient.Builder builder =
        HttpClient.newBuilder()
            .followRedirects(HttpClient.Redirect.NEVER)
            .version(plain ? HttpClient.Version.HTTP_1_1 : HttpClient.Version.HTTP_2)
            .connectTimeout(connectTimeout)
            .executor(ITS_OWN_THREAD);
    if (plain) {
      builder.sslContext(PlainHttp.noTlsContext()).sslParameters(PlainHttp.noTlsParameters());
    } else if (tls != null) {
      builder.sslContext(tls);
    }
    return builder.build();
  }

  /**
   * The HTTP client's executor: a task runs on the thread that hands it over, mostly the client's
   * selector thread, rather than being passed to a pool thread first. The client's own tasks never
   * block (it must work with a one-thread executor too), and this runner never blocks on it: the
   * answer's body is read on the thread the client completes a call's future on (its common pool),
   * or on {@code readers}. One thread hop less for every answer: side by side in one benchmark run
   * (bench/run.mjs, 6 rounds), round trip p50 0.90x the peer against 1.00x with a pool, p99 0.94x
   * against 1.13x. {@code CinchApiHttpsTest} runs it over TLS and HTTP/2.
   */
  static final Executor ITS_OWN_THREAD = Runnable::run;

  @Override
  public String name() {
    return "cinch";
  }

  @Override
  public CompletableFuture<RunResult> run(Program program, RunListener listener) {
    return run(program, listener, Duration.ZERO);
  }

  @Override
  public CompletableFuture<RunResult> run(Program program, RunListener listener, Duration waited) {
    Call call = new Call(program, listener, Math.max(0, timeout.toMillis() - waited.toMillis()));
    call.start();
    return call.result;
  }

  /**
   * A stop on a signal ends the HTTP client's selector thread (see {@link #close}) without waiting
   * for anything: cancelled calls have already aborted their requests, and Java 21's {@code
   * HttpClient.close()} would wait for them to finish.
   */
  @Override
  public boolean stopNow() {
    interruptSelectors();
    return true;
  }

  /**
   * Stops the HTTP client. Its selector thread otherwise sits in native code, and the JVM waits up
   * to 300 ms for such threads when it exits. Java 21 and later close the client; before that the
   * selector thread is interrupted, which ends its loop just as well.
   */
  @Override
  public void close() {
    if (http instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        log.debug("Closing the HTTP client failed: {}", e.toString());
      }
      return;
    }
    interruptSelectors();
  }

  private static void interruptSelectors() {
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      String name = thread.getName();
      if (name.startsWith("HttpClient-") && name.endsWith("-SelectorManager")) {
        thread.interrupt();
      }
    }
  }

  /** One tool call: up to {@link #MAX_ATTEMPTS} requests, one deadline, one result. */
  private final class Call {
    final CompletableFuture<RunResult> result = new CompletableFuture<>();
    final Program program;
    final RunListener listener;
    final long deadlineMillis;
    final String body;
    volatile CompletableFuture<HttpResponse<InputStream>> inFlight;
    volatile InputStream answer;

    /** Milliseconds from now to the call's deadline (less than the timeout if it waited). */
    final long leftMillis;

    Call(Program program, RunListener listener, long leftMillis) {
      this.program = program;
      this.listener = new QuietListener(listener);
      this.leftMillis = leftMillis;
      this.deadlineMillis = clock.millis() + leftMillis;
      this.body = RequestBody.json(program);
    }

    void start() {
      var deadline =
          timers.schedule(() -> offTimer(this::timedOut), leftMillis, TimeUnit.MILLISECONDS);
      result.whenComplete(
          (r, e) -> {
            deadline.cancel(false);
            if (result.isCancelled()) {
              abort(); // the client cancelled the call: drop the request now
            }
          });
      attempt(1);
    }

    void attempt(int n) {
      if (result.isDone()) {
        return;
      }
      long remaining = deadlineMillis - clock.millis();
      if (remaining <= 0) {
        timedOut();
        return;
      }
      // No per-request timeout: the call's own deadline (above) aborts the exchange, and a
      // second timer per request cost the HTTP client's selector thread a wake-up every call.
      HttpRequest request =
          HttpRequest.newBuilder(runUri)
              .header("Authorization", bearer)
              .header("Content-Type", "application/json")
              .header("Accept", "application/json")
              .header("User-Agent", userAgent)
              .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
              .build();
      listener.sent(n);
      Thread caller = Thread.currentThread();
      var sent = http.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream());
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
                readers.execute(() -> handle(n, response));
              } catch (RuntimeException rejected) { // the server is shutting down
                abort();
                fail(ApiErrors.abandoned());
              }
            }
          });
    }

    void handle(int attempt, HttpResponse<InputStream> response) {
      int status = response.statusCode();
      try (InputStream in = response.body()) {
        if (status == 200) {
          complete(in);
        } else if (status == 429) {
          BoundedBody.skip(in);
          retryAfter429(attempt, response);
        } else {
          String text = redactor.redactCut(BoundedBody.read(in, 16 * 1024));
          RunFailure failure = ApiErrors.forStatus(status, text);
          if (failure.kind() == Kind.KEY_REFUSED) {
            listener.log(
                Level.ERROR,
                "The Cinch API refused the API key (HTTP " + status + "): check CINCH_API_KEY.");
          }
          fail(failure);
        }
      } catch (IOException e) {
        endOnExchangeError(e);
      }
    }

    void complete(InputStream in) throws IOException {
      try {
        RunResult run =
            RunAnswerReader.read(new InputStreamReader(in, StandardCharsets.UTF_8), program.out());
        result.complete(
            new RunResult(
                redactor.cappedSafe(run.stdout()),
                redactor.cappedSafe(run.stderr()),
                run.exitCode(),
                run.timedOut(),
                run.durationMs(),
                name(),
                redactor.files(run.files())));
      } catch (RunAnswerReader.NotARun e) {
        String apiMessage = e.apiMessage() == null ? "" : redactor.redactCut(e.apiMessage());
        fail(
            ApiErrors.speaksOfCredits(apiMessage)
                ? ApiErrors.creditsExhausted(ApiErrors.apiMessage(apiMessage))
                : ApiErrors.notARun(e.getMessage(), redactor.redactCut(e.excerpt())));
      }
    }

    void retryAfter429(int attempt, HttpResponse<?> response) {
      Duration wait =
          RetryAfter.parse(response.headers().firstValue("Retry-After").orElse(null), clock)
              .orElse(DEFAULT_RETRY_WAIT);
      long remaining = deadlineMillis - clock.millis();
      if (wait.toMillis() >= remaining) {
        // Waiting would outlast the call: say so rather than pass on whatever the API asked.
        fail(ApiErrors.rateLimitedPastDeadline(attempt, timeout));
        return;
      }
      if (attempt >= MAX_ATTEMPTS) {
        fail(ApiErrors.rateLimited(attempt, RetryAfter.describe(wait)));
        return;
      }
      listener.log(
          Level.WARNING,
          "The Cinch API is rate limiting (HTTP 429); retrying in "
              + wait.toMillis()
              + " ms (attempt "
              + (attempt + 1)
              + " of "
              + MAX_ATTEMPTS
              + ").");
      timers.schedule(
          () -> offTimer(() -> attempt(attempt + 1)), wait.toMillis(), TimeUnit.MILLISECONDS);
    }

    void timedOut() {
      if (fail(ApiErrors.timedOut(timeout))) {
        abort();
      }
    }

    /**
     * Completes the call with a failure, once; says whether this was the completion. The message is
     * masked here, the one way out of this class for a failure: whatever it quotes (a body, a
     * header, an exception's text) has been through the redactor.
     */
    boolean fail(RunFailure failure) {
      return result.completeExceptionally(
          new RunFailure(failure.reason(), redactor.redact(failure.getMessage())));
    }

    void abort() {
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

    /**
     * Ends the call for an error that stopped the HTTP exchange before an answer was read: nothing
     * when the call is already over (cancelled, answered, timed out: the error is only the echo of
     * that); the timeout failure for a timeout the HTTP client reports (the call's deadline is
     * ours, but a timeout is never passed on as anything else); else the failure that says what
     * went wrong on the way.
     */
    void endOnExchangeError(Throwable error) {
      Throwable cause = unwrap(error);
      if (cause instanceof CancellationException || result.isDone()) {
        return;
      }
      if (cause instanceof HttpTimeoutException
          && !(cause instanceof HttpConnectTimeoutException)) {
        timedOut();
        return;
      }
      log.debug("Request to the Cinch API failed: {}", redactor.redact(cause.toString()));
      fail(ApiErrors.exchangeFailed("the Cinch API at " + runUri.resolve("/"), cause, redactor));
    }
  }

  /**
   * Runs what a timer set off on a reader thread. One timer thread serves every call's deadline;
   * what a deadline sets off (the answer travelling up to the client, which may block on its
   * stdout; closing the exchange) must never hold it, or every other call would miss its deadline.
   */
  private void offTimer(Runnable action) {
    try {
      readers.execute(action);
    } catch (RejectedExecutionException shuttingDown) {
      action.run();
    }
  }

  /** A listener that cannot break a call: what it throws is logged and dropped. */
  private record QuietListener(RunListener inner) implements RunListener {
    @Override
    public void sent(int attempt) {
      try {
        inner.sent(attempt);
      } catch (RuntimeException e) {
        log.debug("A run listener failed: {}", e.toString());
      }
    }

    @Override
    public void log(Level level, String message) {
      try {
        inner.log(level, message);
      } catch (RuntimeException e) {
        log.debug("A run listener failed: {}", e.toString());
      }
    }
  }

  private static Throwable unwrap(Throwable t) {
    while (t instanceof CompletionException && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }
}
