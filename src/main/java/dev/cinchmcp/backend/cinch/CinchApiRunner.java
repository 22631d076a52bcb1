package dev.cinchmcp.backend.cinch;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dev.cinchmcp.backend.CodeRunner;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunListener;
import dev.cinchmcp.backend.RunResult;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs programs at the Cinch API ({@code POST {base}/run}, bearer key, JSON program) through one
 * {@link ApiCall} each; owns the HTTP client's life. No per-request timeout: the call's deadline
 * aborts the exchange, and a timer per request cost the selector thread a wake-up every call.
 */
public final class CinchApiRunner implements CodeRunner, AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(CinchApiRunner.class);

  /** At most this many attempts when the API says 429; a run refused with 429 never ran. */
  static final int MAX_ATTEMPTS = 3;

  /**
   * The HTTP client's executor: its tasks (which never block) run on the thread that hands them
   * over, mostly the selector thread. One hop less per answer: in one bench/run.mjs run (6 rounds),
   * round trip p50 0.90x the peer against 1.00x with a pool, p99 0.94x against 1.13x.
   */
  static final Executor ITS_OWN_THREAD = Runnable::run;

  final HttpClient http;
  final Duration timeout;
  final Executor readers;
  final ScheduledExecutorService timers;
  final Redactor redactor;
  final Clock clock;
  private final URI runUri;
  private final String bearer;
  private final String userAgent;

  /** {@code timeout} covers retries; {@code readers} read bodies already arriving. */
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
    this.userAgent = userAgent;
    this.timeout = timeout;
    this.http = http;
    this.readers = readers;
    this.timers = timers;
    this.redactor = new Redactor(apiKey);
    this.clock = clock;
  }

  /** No redirects; on plain http, HTTP/1.1 (no h2c upgrade) and no TLS set-up ({@link NoTls}). */
  public static HttpClient newHttpClient(URI base, Duration connectTimeout) {
    return newHttpClient(base, connectTimeout, null);
  }

  /** The same with this TLS context for https ({@code null}: the JDK's default), for tests. */
  static HttpClient newHttpClient(URI base, Duration connectTimeout, SSLContext tls) {
    boolean plain = "http".equalsIgnoreCase(base.getScheme());
    HttpClient.Builder builder =
        HttpClient.newBuilder()
            .followRedirects(HttpClient.Redirect.NEVER)
            .version(plain ? HttpClient.Version.HTTP_1_1 : HttpClient.Version.HTTP_2)
            .connectTimeout(connectTimeout)
            .executor(ITS_OWN_THREAD);
    if (plain) {
      builder.sslContext(new SSLContext(new NoTls(), null, "none") {});
      builder.sslParameters(new SSLParameters()); // else the client asks the context for them
    } else if (tls != null) {
      builder.sslContext(tls);
    }
    return builder.build();
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
    ApiCall call =
        new ApiCall(this, program, listener, Math.max(0, timeout.toMillis() - waited.toMillis()));
    call.start();
    return call.result;
  }

  /** {@code {"code": "...", "language": "python"}}, made once per call. */
  static String body(Program program) {
    StringBuilder sb = new StringBuilder(program.code().length() + 48).append("{\"code\":\"");
    JsonStringEncoder.getInstance().quoteAsString(program.code(), sb);
    return sb.append("\",\"language\":\"")
        .append(program.language().wireName())
        .append("\"}")
        .toString();
  }

  HttpRequest request(String body) {
    return HttpRequest.newBuilder(runUri)
        .header("Authorization", bearer)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json")
        .header("User-Agent", userAgent)
        .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
        .build();
  }

  String where() {
    return "the Cinch API at " + runUri.resolve("/");
  }

  /** On a signal: Java 21's {@code HttpClient.close()} would wait for the aborted requests. */
  @Override
  public boolean stopNow() {
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      String name = thread.getName();
      if (name.startsWith("HttpClient-") && name.endsWith("-SelectorManager")) {
        thread.interrupt();
      }
    }
    return true;
  }

  /** The JVM waits up to 300 ms at exit for a selector thread left in native code: end it. */
  @Override
  public void close() {
    if (http instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        log.debug("Closing the HTTP client failed: {}", e.toString());
      }
    } else {
      stopNow();
    }
  }

  /**
   * No TLS, for a client that only speaks plain http: the HTTP client loads the JDK's default TLS
   * context when built, used or not, which costs a fresh JVM 150-200 ms (the trust store is read).
   * The scheme is fixed and redirects are never followed, so this is never asked for a connection.
   */
  private static final class NoTls extends SSLContextSpi {

    private static UnsupportedOperationException refused() {
      return new UnsupportedOperationException(
          "TLS is not set up: CINCH_BASE_URL is a plain http URL");
    }

    @Override
    protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom sr) {}

    @Override
    protected SSLSocketFactory engineGetSocketFactory() {
      throw refused();
    }

    @Override
    protected SSLServerSocketFactory engineGetServerSocketFactory() {
      throw refused();
    }

    @Override
    protected SSLEngine engineCreateSSLEngine() {
      throw refused();
    }

    @Override
    protected SSLEngine engineCreateSSLEngine(String host, int port) {
      throw refused();
    }

    @Override
    protected SSLSessionContext engineGetServerSessionContext() {
      return null;
    }

    @Override
    protected SSLSessionContext engineGetClientSessionContext() {
      return null;
    }
  }
}
