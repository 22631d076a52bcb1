package dev.cinchmcp.backend;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;

/** How a run in a local sandbox or a container ended, and the result each ending makes. */
public enum SandboxEnding {
  EXITED, // or a limit killed it before the time limit
  TIMED_OUT,
  CANCELLED; // or the runner closed while it ran

  /** SIGKILL's status, what an OOM kill looks like. */
  public static final int KILLED = 128 + 9;

  /** The result of a run with no exit status: cancelled, or stopped at the time limit. */
  public RunResult unfinished(
      SandboxOutput output, Duration wallClock, long durationMs, String backend) {
    boolean timedOut = this == TIMED_OUT;
    String note =
        timedOut
            ? "[sandbox] stopped: the program reached its %d s time limit"
                .formatted(wallClock.toSeconds())
            : null;
    return new RunResult(
        output.stdout(), output.stderr(note), null, timedOut, durationMs, backend, output.files());
  }

  public static RunFailure shutDownWhileRunning(String runner) {
    return new RunFailure(
        RunFailure.Reason.STOPPED_WHILE_RUNNING,
        "The " + runner + " was shut down before the program finished.");
  }

  /** Completes {@code future}; a timed-out run is also said in the client's log. */
  public static void complete(
      CompletableFuture<RunResult> future, RunResult result, RunListener events, String timedOut) {
    if (result.timedOut()) {
      events.log(RunListener.Level.INFO, timedOut);
    }
    future.complete(result);
  }

  /** A {@link RunFailure} as it is; anything else is logged with its stack, SANDBOX_FAILED. */
  public static RunFailure failure(
      RuntimeException thrown,
      RunListener events,
      Logger log,
      String sandbox,
      String backend,
      String advice) {
    if (thrown instanceof RunFailure failure) {
      events.log(RunListener.Level.ERROR, failure.getMessage());
      return failure;
    }
    log.error("{} failed", sandbox, thrown);
    return new RunFailure(
        RunFailure.Reason.SANDBOX_FAILED,
        backend + " failed unexpectedly (" + thrown.getClass().getSimpleName() + "). " + advice);
  }

  /** {@code note}: the sandbox's line after stderr (which limit killed it), or null. */
  public static RunResult exited(
      SandboxOutput output, int exitCode, String note, long durationMs, String backend) {
    return new RunResult(
        output.stdout(), output.stderr(note), exitCode, false, durationMs, backend, output.files());
  }
}
