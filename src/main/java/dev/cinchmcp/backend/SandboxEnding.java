package dev.cinchmcp.backend;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;

/**
 * How a run in a sandbox of this machine (the local gVisor sandbox, a container) ended, and the
 * result each ending makes: the two backends differ in how they learn it, not in what it means.
 */
public enum SandboxEnding {
  /** The program exited, or a limit killed it, before the time limit. */
  EXITED,
  /** The time limit stopped it. */
  TIMED_OUT,
  /** The call was cancelled, or the runner closed, while it ran. */
  CANCELLED;

  /** The status a shell reports for a process killed by SIGKILL (what an OOM kill looks like). */
  public static final int KILLED = 128 + 9;

  /**
   * The result of a run that has no exit status of its own: cancelled, or stopped at the time limit
   * (which stderr then ends by saying).
   *
   * @param wallClock the time limit, for the note
   * @param backend the backend's name
   */
  public RunResult unfinished(
      SandboxOutput output, Duration wallClock, long durationMs, String backend) {
    if (this == EXITED) {
      throw new IllegalStateException("an exited run has its exit status");
    }
    boolean timedOut = this == TIMED_OUT;
    String note =
        timedOut
            ? "[sandbox] stopped: the program reached its "
                + wallClock.toSeconds()
                + " s time limit"
            : null;
    return new RunResult(
        output.stdout(), output.stderr(note), null, timedOut, durationMs, backend, output.files());
  }

  /**
   * The failure of a run whose runner was shut down while the program ran.
   *
   * @param runner e.g. "docker runner"
   */
  public static RunFailure shutDownWhileRunning(String runner) {
    return new RunFailure(
        RunFailure.Reason.STOPPED_WHILE_RUNNING,
        "The " + runner + " was shut down before the program finished.");
  }

  /**
   * Completes the caller's {@code future} with a run's result; one the time limit stopped is also
   * said in the client's log, with {@code timedOut}.
   */
  public static void complete(
      CompletableFuture<RunResult> future, RunResult result, RunListener events, String timedOut) {
    if (result.timedOut()) {
      events.log(RunListener.Level.INFO, timedOut);
    }
    future.complete(result);
  }

  /**
   * What the caller of a run is told when the run threw: a {@link RunFailure} as it is, also in the
   * client's log; anything else was not foreseen, so it is logged with its stack for the operator
   * and the model gets a {@link RunFailure.Reason#SANDBOX_FAILED}.
   *
   * @param log the runner's logger
   * @param sandbox the sandbox in the operator's log, e.g. "Container cinchmcp-1-2"
   * @param backend the backend in the model's words, e.g. "The docker backend"
   * @param advice what the model may do then, e.g. "Try again."
   */
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

  /**
   * The result of a run that exited.
   *
   * @param note the sandbox's line after stderr (which limit killed it), or null
   */
  public static RunResult exited(
      SandboxOutput output, int exitCode, String note, long durationMs, String backend) {
    return new RunResult(
        output.stdout(), output.stderr(note), exitCode, false, durationMs, backend, output.files());
  }
}
