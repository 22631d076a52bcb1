package dev.cinchmcp.backend;

/** What a run in a sandbox of this machine (gVisor, a container) captured, read once it ended. */
public interface SandboxOutput {

  CappedText stdout();

  /** Stderr, with a line of the sandbox's own after it (why it was stopped), or none when null. */
  CappedText stderr(String note);

  /** What the launcher's frame brought; {@link WrittenFiles#NOT_ASKED} without one. */
  WrittenFiles files();
}
