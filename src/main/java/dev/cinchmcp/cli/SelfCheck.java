package dev.cinchmcp.cli;

import dev.cinchmcp.Version;
import dev.cinchmcp.backend.CodeRunner;
import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunListener;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.cinch.CinchApiRunner;
import dev.cinchmcp.config.Settings;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code --check}: reads the settings the way the server does, runs one tiny program through the same
 * {@link CinchApiRunner} a tool call uses, and prints a {@link CheckReport}. A person runs it when a
 * client says the server failed, to learn why without reading JSON-RPC.
 */
final class SelfCheck {

  /** The test program: cheap, and its answer is easy to recognise. */
  static final Program PROBE = new Program("print(6 * 7)", Language.PYTHON);

  static final String PROBE_OUTPUT = "42";

  /** The runner enforces the timeout itself; this margin only guards against a runner that never ends. */
  private static final Duration MARGIN = Duration.ofSeconds(5);

  private final Settings settings;

  SelfCheck(Settings settings) {
    this.settings = settings;
  }

  /** Runs the check, prints the report to {@code out} and returns the exit code. */
  int run(PrintStream out) {
    CheckReport report = new CheckReport(Version.get());
    if (!settings.usable()) {
      report.misconfigured(settings.problems());
    } else {
      report.configured(settings.describe());
      probe(report);
    }
    report.print(out);
    return report.ok() ? ExitCode.OK : ExitCode.CHECK_FAILED;
  }

  private void probe(CheckReport report) {
    ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(daemon("cinch-check-timer"));
    ExecutorService workers = Executors.newCachedThreadPool(daemon("cinch-check-io"));
    try {
      CodeRunner runner = newRunner(timers, workers);
      long start = System.nanoTime();
      try {
        RunResult result = runner.run(PROBE, RunListener.NONE)
            .get(settings.timeout().plus(MARGIN).toMillis(), TimeUnit.MILLISECONDS);
        report.ran(result, millisSince(start), PROBE_OUTPUT);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof RunFailure failure) {
          report.failed(failure, millisSince(start), settings.timeout().toMillis());
        } else {
          // A bug, not a verdict on the API: its class only (a message could quote a request).
          report.unfinished("the check itself failed (" + e.getCause().getClass().getName() + "). Please report it.");
        }
      } catch (TimeoutException e) {
        report.unfinished("the check got no verdict within " + settings.timeout().plus(MARGIN).toMillis() + " ms.");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        report.unfinished("the check was interrupted.");
      }
    } finally {
      workers.shutdownNow();
      timers.shutdownNow();
    }
  }

  /** The same runner the server builds for a usable configuration (see CinchMcpServer). */
  private CodeRunner newRunner(ScheduledExecutorService timers, ExecutorService workers) {
    Duration connectTimeout = settings.timeout().compareTo(Duration.ofSeconds(10)) < 0
        ? settings.timeout() : Duration.ofSeconds(10);
    return new CinchApiRunner(settings.runUri(), settings.apiKey().orElseThrow(), settings.timeout(),
        Version.userAgent(), CinchApiRunner.newHttpClient(settings.baseUri(), connectTimeout, workers),
        workers, timers, Clock.systemUTC());
  }

  private static long millisSince(long startNanos) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }
}
