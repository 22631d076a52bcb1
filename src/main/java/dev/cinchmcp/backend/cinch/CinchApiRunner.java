package dev.cinchmcp.backend.cinch;

import dev.cinchmcp.backend.CodeRunner;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunListener;
import dev.cinchmcp.backend.RunResult;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import javax.net.ssl.SSLContext;

/**
 * Runs programs at the Cinch API: {@code POST {base}/run} with the key as a bearer token.
 *
 * <p>The parts: {@link RunRequest} builds the request; {@link ApiCall} makes one tool call of it
 * (attempts, retries after a 429, the deadline, cancellation) and holds no thread while it waits;
 * {@link ApiAnswer} reads what the API answered, and {@link ApiErrors} words every failure; {@link
 * ApiHttpClient} makes and stops the HTTP client.
 */
public final class CinchApiRunner implements CodeRunner, AutoCloseable {

  /** At most this many attempts when the API says 429; a run refused with 429 never ran. */
  static final int MAX_ATTEMPTS = ApiCall.MAX_ATTEMPTS;

  private final HttpClient http;
  private final ApiCall.Setup calls;

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
    this.http = http;
    this.calls =
        new ApiCall.Setup(
            http,
            new RunRequest(runUri, apiKey, userAgent),
            timeout,
            readers,
            timers,
            new Redactor(apiKey),
            clock,
            name());
  }

  /**
   * The client this runner expects: no redirects; on plain http, HTTP/1.1 (no h2c upgrade dance)
   * and no TLS set-up at all ({@link PlainHttp}); its own tasks run where they arise ({@link
   * ApiHttpClient#ITS_OWN_THREAD}).
   */
  public static HttpClient newHttpClient(URI base, Duration connectTimeout) {
    return newHttpClient(base, connectTimeout, null);
  }

  /** The same with this TLS context for https ({@code null}: the JDK's default); for tests. */
  static HttpClient newHttpClient(URI base, Duration connectTimeout, SSLContext tls) {
    return ApiHttpClient.create(base, connectTimeout, tls);
  }

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
    long left = Math.max(0, calls.timeout().toMillis() - waited.toMillis());
    ApiCall call = new ApiCall(calls, program, listener, left);
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
    ApiHttpClient.interruptSelectors();
    return true;
  }

  /**
   * Stops the HTTP client. Its selector thread otherwise sits in native code, and the JVM waits up
   * to 300 ms for such threads when it exits ({@link ApiHttpClient#close}).
   */
  @Override
  public void close() {
    ApiHttpClient.close(http);
  }
}
