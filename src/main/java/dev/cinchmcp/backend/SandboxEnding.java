package dev.cinchmcp.backend;

import java.time.Duration;

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
