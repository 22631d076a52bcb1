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
 * {@code --check}: runs one tiny program through the backend a tool call would use, and prints one
 * labelled line per question a person asks (configuration, API reachable, key, credits, speed),
 * then a verdict that says what to do. Every line is masked once more, though none should hold the
 * key.
 */
final class SelfCheck {

  static final Program PROBE = new Program("print(6 * 7)", Language.PYTHON);
  static final String PROBE_OUTPUT = "42";

  /** The runner enforces its timeout itself; this only guards against one that never ends. */
  private static final Duration MARGIN = Duration.ofSeconds(5);

  /** The engine may pull the image first: that can take minutes on a slow line. */
  private static final Duration ENGINE_LIMIT = Duration.ofMinutes(5);

  private static final String NOT_CHECKED = "not checked";
  private static final String INDENT = " ".repeat(17);

  private final Settings settings;
  private final PrintStream out;
  private final Redactor redactor;
  private String verdict = "";

  SelfCheck(Settings settings, PrintStream out) {
    this.settings = settings;
    this.out = out;
    this.redactor = new Redactor(settings.apiKey().orElse(null));
  }

  /** Prints the report, line by line, and returns the exit code. */
  int run() {
    out.println("cinch-mcp " + Version.get() + " self-check");
    ScheduledExecutorService timers =
        Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("cinch-check-timer"));
    ExecutorService workers = Executors.newCachedThreadPool(DaemonThreads.named("cinch-check-io"));
    BackendChoice backend =
        BackendChoice.choose(
            settings,
            CompletableFuture.completedFuture(null),
            workers,
            timers,
            BackendChoice::startLocal);
    try {
      if (!backend.usable()) {
        row("Configuration", "NOT OK");
        backend.problems().forEach(p -> wrap("- " + p));
        unfinished(
            "the configuration must be fixed first (see above); nothing was sent to the API.");
      } else {
        row("Configuration", "OK (" + backend.summary() + ")");
        row("Packages", backend.facts().packages());
        probe(backend.runner());
      }
    } finally {
      if (backend.runner() instanceof AutoCloseable closeable) {
        try {
          closeable.close();
        } catch (Exception ignored) {
          // the check is over either way
        }
      }
      workers.shutdownNow();
      timers.shutdownNow();
    }
    out.println();
    out.println(verdict);
    return verdict.startsWith("OK") ? Cli.OK : Cli.CHECK_FAILED;
  }

  private void probe(CodeRunner runner) {
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
      ran(runner.name(), result, millisSince(start));
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RunFailure failure) {
        failed(failure, millisSince(start));
      } else {
        // A bug, not a verdict on the API: its class only (a message could quote a request).
        unfinished(
            "the check itself failed ("
                + e.getCause().getClass().getName()
                + "). Please report it.");
      }
    } catch (TimeoutException e) {
      unfinished("the check got no verdict within " + limit.toMillis() + " ms.");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      unfinished("the check was interrupted.");
    }
  }

  /** At the API every question has a good answer; locally what the program did decides. */
  private void ran(String backend, RunResult result, long millis) {
    boolean local = backend.equals("local");
    if (!local && !backend.equals("docker")) {
      answers("yes", "accepted", "available (the test run was accepted)");
      row("Round trip", millis + " ms");
      // The API took the call, so the tool will work, even if the sandbox did something odd.
      noteIfUnexpected(result);
      verdict = "OK: execute_code calls will work.";
      return;
    }
    row(
        "Sandbox",
        "ran the test program in a fresh "
            + (local ? "gVisor sandbox" : "container of the engine"));
    row("Run time", millis + (local ? " ms" : " ms (the first run of an image includes its pull)"));
    if (noteIfUnexpected(result)) {
      fail(
          (local
                  ? "the local sandbox started but did not run"
                  : "the engine started a container but it did not run")
              + " the test program correctly (see above).");
    } else {
      verdict =
          "OK: execute_code calls will work, in "
              + (local ? "a local gVisor sandbox." : "containers of the engine named above.");
    }
  }

  /** Adds a note when the test program did not print what it should or exit 0; says whether. */
  private boolean noteIfUnexpected(RunResult result) {
    String printed = result.stdout().text().strip();
    if (result.succeeded() && printed.equals(PROBE_OUTPUT)) {
      return false;
    }
    String oneLine = printed.replaceAll("\\s+", " ");
    wrap(
        "Note: the test program printed \"%s\" with exit code %d%s; expected \"%s\" and exit code 0."
            .formatted(
                oneLine.length() > 60 ? oneLine.substring(0, 60) + "..." : oneLine,
                result.exitCode(),
                result.timedOut() ? " and timed out" : "",
                PROBE_OUTPUT));
    return true;
  }

  /** The API call failed: which questions it answers, and what to do, depend on the kind. */
  private void failed(RunFailure failure, long millis) {
    String advice =
        switch (failure.kind()) {
          case UNREACHABLE -> {
            answers("NO", NOT_CHECKED, NOT_CHECKED);
            yield "the API cannot be reached. Check the network (a proxy or firewall?) and"
                + " CINCH_BASE_URL.";
          }
          case TIMEOUT -> {
            long timeout = settings.timeout().toMillis();
            answers("no answer within " + timeout + " ms", NOT_CHECKED, NOT_CHECKED);
            yield "the API did not answer in time. Check the network and CINCH_BASE_URL, or raise"
                + " CINCH_TIMEOUT_MS.";
          }
          case KEY_REFUSED -> {
            answers("yes", "REFUSED", NOT_CHECKED);
            yield "the API refused the key. Copy a valid key from your Cinch account into"
                + " CINCH_API_KEY.";
          }
          case CREDITS_EXHAUSTED -> {
            answers("yes", "accepted", "EXHAUSTED");
            yield "the Cinch account is out of credits. Add credits to it; nothing else will help.";
          }
          case RATE_LIMITED -> {
            answers("yes", "not refused", "not checked (rate limited first)");
            yield "the API is rate limiting this key. Wait a minute and run --check again.";
          }
          case SERVER_ERROR -> {
            answers("yes, but it is failing", NOT_CHECKED, NOT_CHECKED);
            yield "the Cinch API is failing on its side. Try again later.";
          }
          case REQUEST_REFUSED -> {
            answers("yes", "not refused", NOT_CHECKED);
            yield "the API refused the test program, which should not happen. Please report it.";
          }
          case UNEXPECTED_ANSWER -> {
            answers("something answered, but not like the Cinch API", NOT_CHECKED, NOT_CHECKED);
            yield "the answer did not come from the Cinch API. Check CINCH_BASE_URL.";
          }
          case MISCONFIGURED, SANDBOX_UNAVAILABLE, INPUT_NOT_DELIVERED -> {
            answers(NOT_CHECKED, NOT_CHECKED, NOT_CHECKED);
            yield "the server cannot run code (see the detail above).";
          }
        };
    row("Round trip", millis + " ms, failed");
    wrap("Detail: " + failure.getMessage());
    fail(advice);
  }

  /** No answer from the API: every question about it is "not checked". */
  private void unfinished(String why) {
    answers(NOT_CHECKED, NOT_CHECKED, NOT_CHECKED);
    fail(why);
  }

  private void answers(String reachable, String key, String credits) {
    row("API reachable", reachable);
    row("API key", key);
    row("Credits", credits);
  }

  private void fail(String why) {
    verdict = "FAILED: " + redactor.redact(why);
  }

  private void row(String label, String value) {
    out.println("  " + String.format("%-15s", label) + redactor.redact(value));
  }

  /** Adds a long sentence under the table, masked whole, then broken at spaces. */
  private void wrap(String text) {
    out.println(Cli.wrap(INDENT, redactor.redact(text)));
  }

  private static long millisSince(long startNanos) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
  }
}
