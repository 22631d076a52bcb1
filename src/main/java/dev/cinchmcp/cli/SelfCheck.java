package dev.cinchmcp.cli;

import dev.cinchmcp.backend.CodeRunner;
import dev.cinchmcp.backend.DaemonThreads;
import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunListener;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.choice.BackendChoice;
import dev.cinchmcp.backend.cinch.Redactor;
import dev.cinchmcp.config.Settings;
import dev.cinchmcp.config.Version;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code --check}: reads the settings the way the server does, runs one tiny program through the
 * same backend a tool call would use ({@link BackendChoice}), and prints a {@link CheckReport}. A
 * person runs it when a client says the server failed, to learn why without reading JSON-RPC.
 */
final class SelfCheck {

  /** The test program: cheap, and its answer is easy to recognise. */
  static final Program PROBE = new Program("print(6 * 7)", Language.PYTHON);

  static final String PROBE_OUTPUT = "42";

  /** The runner enforces its timeout itself; this only guards against one that never ends. */
  private static final Duration MARGIN = Duration.ofSeconds(5);

  /** The engine may pull the image first: that can take minutes on a slow line. */
  private static final Duration ENGINE_LIMIT = Duration.ofMinutes(5);

  private final Settings settings;

  SelfCheck(Settings settings) {
    this.settings = settings;
  }

  /** Returns the exit code. */
  int run(PrintStream out) {
    CheckReport report =
        new CheckReport(Version.get(), new Redactor(settings.apiKey().orElse(null)));
    ScheduledExecutorService timers =
        Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("cinch-check-timer"));
    ExecutorService workers = Executors.newCachedThreadPool(DaemonThreads.named("cinch-check-io"));
    BackendChoice backend = null;
    try {
      backend =
          BackendChoice.choose(
              settings,
              CompletableFuture.completedFuture(null),
              workers,
              timers,
              BackendChoice::startLocal);
      if (!backend.usable()) {
        report.misconfigured(backend.problems());
      } else {
        report.configured(backend.summary(), backend.packages());
        probe(report, backend.runner());
      }
    } finally {
      if (backend != null && backend.runner() instanceof AutoCloseable closeable) {
        try {
          closeable.close();
        } catch (Exception ignored) {
          // the check is over either way
        }
      }
      workers.shutdownNow();
      timers.shutdownNow();
    }
    report.print(out);
    return report.ok() ? Cli.OK : Cli.CHECK_FAILED;
  }

  private void probe(CheckReport report, CodeRunner runner) {
    // By name, not DockerRunner.NAME: that would load the backends' classes.
    Duration limit =
        switch (runner.name()) {
          case "local" -> settings.limits().timeLimit();
          case "docker" -> ENGINE_LIMIT;
          default -> settings.timeout();
        };
    limit = limit.plus(MARGIN);
    long start = System.nanoTime();
    try {
      RunResult result =
          runner.run(PROBE, RunListener.NONE).get(limit.toMillis(), TimeUnit.MILLISECONDS);
      report.ran(runner.name(), result, millisSince(start), PROBE_OUTPUT);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RunFailure failure) {
        report.failed(failure, millisSince(start), settings.timeout().toMillis());
      } else {
        // A bug, not a verdict on the API: its class only (a message could quote a request).
        report.unfinished(
            "the check itself failed ("
                + e.getCause().getClass().getName()
                + "). Please report it.");
      }
    } catch (TimeoutException e) {
      report.unfinished("the check got no verdict within " + limit.toMillis() + " ms.");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      report.unfinished("the check was interrupted.");
    }
  }

  private static long millisSince(long startNanos) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
  }
}
