package dev.cinchmcp.testkit;

import dev.cinchmcp.backend.DaemonThreads;
import dev.cinchmcp.backend.cinch.CinchApiRunner;
import dev.cinchmcp.config.Version;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Real {@link CinchApiRunner}s pointed at a fake API (or any URI), wired the way CinchMcpServer
 * wires them, with thread pools of their own that {@link #close} ends.
 */
public final class CinchRunners implements AutoCloseable {

  /** The API key every test runner sends. */
  public static final String KEY = "cinch_live_test_5f2c9a1b7e";

  private final ExecutorService workers =
      Executors.newCachedThreadPool(DaemonThreads.named("test-runner"));
  private final ScheduledExecutorService timers =
      Executors.newScheduledThreadPool(1, DaemonThreads.named("test-timer"));

  public CinchRunners() {}

  public CinchApiRunner runner(URI runUri, Duration timeout) {
    return runner(runUri, timeout, KEY);
  }

  public CinchApiRunner runner(URI runUri, Duration timeout, String key) {
    return runner(runUri, timeout, key, CinchApiRunner.newHttpClient(runUri, connect(timeout)));
  }

  /** A runner that sends with this client (one with a TLS context of the test's, say). */
  public CinchApiRunner runner(URI runUri, Duration timeout, String key, HttpClient client) {
    return new CinchApiRunner(
        runUri, key, timeout, Version.userAgent(), client, workers, timers, Clock.systemUTC());
  }

  /** The connect timeout a runner with this timeout gets: the timeout, at most 10 s. */
  public static Duration connect(Duration timeout) {
    return timeout.compareTo(Duration.ofSeconds(10)) < 0 ? timeout : Duration.ofSeconds(10);
  }

  /** The runners' timer pool, for a tool that needs one too. */
  public ScheduledExecutorService timers() {
    return timers;
  }

  @Override
  public void close() {
    workers.shutdownNow();
    timers.shutdownNow();
  }
}
