package dev.cinchmcp.backend;

import dev.cinchmcp.text.CappedText;
import java.util.Objects;

/**
 * What a sandbox reported about one run. Fields the backend could not learn are null: a backend
 * that got an answer without an exit code says so rather than inventing one.
 *
 * @param exitCode the program's exit status, or null when the backend did not report one
 * @param durationMs the run's duration in the sandbox, or null when not reported
 * @param backend the name of the backend that ran it ("cinch", "local")
 * @param files what the program wrote and showed, when its launcher was asked to hand it back
 */
public record RunResult(
    CappedText stdout,
    CappedText stderr,
    Integer exitCode,
    boolean timedOut,
    Long durationMs,
    String backend,
    WrittenFiles files) {

  public RunResult {
    stdout = stdout == null ? CappedText.EMPTY : stdout;
    stderr = stderr == null ? CappedText.EMPTY : stderr;
    Objects.requireNonNull(backend, "backend");
    files = files == null ? WrittenFiles.NOT_ASKED : files;
  }

  public RunResult(
      CappedText stdout,
      CappedText stderr,
      Integer exitCode,
      boolean timedOut,
      Long durationMs,
      String backend) {
    this(stdout, stderr, exitCode, timedOut, durationMs, backend, WrittenFiles.NOT_ASKED);
  }

  /** A run succeeded when it exited 0 within its time. */
  public boolean succeeded() {
    return !timedOut && exitCode != null && exitCode == 0;
  }
}
