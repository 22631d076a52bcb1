package dev.cinchmcp.backend.cinch;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.fail;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunListener;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.config.Version;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLContext;

/**
 * A real WireMock server on a dynamic loopback port, and real {@link CinchApiRunner}s pointed at it
 * (or at any other URI), wired the way CinchMcpServer wires them.
 */
final class ApiHarness implements AutoCloseable {

  static final String KEY = "cinch_live_test_5f2c9a1b7e";

  /** How long a test waits for a run's future at most; far above every configured timeout. */
  static final Duration TEST_WAIT = Duration.ofSeconds(20);

  final WireMockServer wireMock;
  private final ExecutorService workers = Executors.newCachedThreadPool(daemon());
  private final ScheduledExecutorService timers = Executors.newScheduledThreadPool(1, daemon());

  ApiHarness() {
    this(WireMockConfiguration.options().dynamicPort().bindAddress("127.0.0.1"));
  }

  private ApiHarness(WireMockConfiguration options) {
    wireMock = new WireMockServer(options);
    wireMock.start();
  }

  /**
   * With an HTTPS port too: WireMock's self-signed certificate, and Jetty with ALPN, so a client
   * that offers HTTP/2 gets it, as from the real API.
   */
  static ApiHarness withHttps() {
    return new ApiHarness(
        WireMockConfiguration.options().dynamicPort().dynamicHttpsPort().bindAddress("127.0.0.1"));
  }

  /** The run endpoint on the HTTPS port (of {@link #withHttps}). */
  URI httpsRun() {
    return URI.create("https://127.0.0.1:" + wireMock.httpsPort() + "/run");
  }

  URI base() {
    return URI.create("http://127.0.0.1:" + wireMock.port());
  }

  CinchApiRunner runner(Duration timeout) {
    return runner(base().resolve("/run"), timeout);
  }

  CinchApiRunner runner(URI runUri, Duration timeout) {
    return runner(runUri, timeout, KEY);
  }

  CinchApiRunner runner(URI runUri, Duration timeout, String key) {
    return runner(runUri, timeout, key, null);
  }

  /** A runner whose https connections use this TLS context ({@code null}: the JDK's default). */
  CinchApiRunner runner(URI runUri, Duration timeout, String key, SSLContext tls) {
    Duration connect =
        timeout.compareTo(Duration.ofSeconds(10)) < 0 ? timeout : Duration.ofSeconds(10);
    return new CinchApiRunner(
        runUri,
        key,
        timeout,
        Version.userAgent(),
        CinchApiRunner.newHttpClient(runUri, connect, tls),
        workers,
        timers,
        Clock.systemUTC());
  }

  /** A listener that keeps what it is told. */
  static final class Recorder implements RunListener {
    final List<Integer> sent = new CopyOnWriteArrayList<>();
    final List<String> logs = new CopyOnWriteArrayList<>();

    @Override
    public void sent(int attempt) {
      sent.add(attempt);
    }

    @Override
    public void log(Level level, String message) {
      logs.add(level + " " + message);
    }
  }

  static Program python(String code) {
    return new Program(code, Language.PYTHON);
  }

  static RunResult runOk(CinchApiRunner runner, Program program) {
    try {
      return runner.run(program, RunListener.NONE).get(TEST_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new AssertionError(
          "expected a result but the run failed: " + e.getCause(), e.getCause());
    } catch (InterruptedException | TimeoutException e) {
      throw new AssertionError("the run did not complete", e);
    }
  }

  static RunFailure runFails(CinchApiRunner runner, Program program, RunListener listener) {
    CompletableFuture<RunResult> future = runner.run(program, listener);
    try {
      RunResult result = future.get(TEST_WAIT.toMillis(), TimeUnit.MILLISECONDS);
      return fail("expected a failure but got " + result);
    } catch (ExecutionException e) {
      return assertInstanceOf(RunFailure.class, e.getCause());
    } catch (InterruptedException | TimeoutException e) {
      throw new AssertionError("the run did not complete", e);
    }
  }

  static RunFailure runFails(CinchApiRunner runner) {
    return runFails(runner, python("print(1)"), RunListener.NONE);
  }

  @Override
  public void close() {
    wireMock.stop();
    workers.shutdownNow();
    timers.shutdownNow();
  }

  private static java.util.concurrent.ThreadFactory daemon() {
    return r -> {
      Thread t = new Thread(r, "test-runner");
      t.setDaemon(true);
      return t;
    };
  }
}
