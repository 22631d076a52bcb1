package dev.cinchmcp.backend;

import dev.cinchmcp.text.CappedText;

/** What a sandbox reported about one run; what the backend could not learn is null. */
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

  public boolean succeeded() {
    return !timedOut && exitCode != null && exitCode == 0;
  }
}
