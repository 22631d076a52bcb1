package dev.cinchmcp.backend;

/**
 * A sandbox started ahead of time that waits for exactly one program (see {@link WarmPool}). A
 * backend makes it with everything a cold run would have fixed before the program's first line
 * (limits, mounts, the interpreter up), and destroys it after its one use.
 */
public interface StartedSandbox {

  /**
   * Whether it can still take its program: it is alive, and nothing it was started from has changed
   * since (an interpreter upgraded on the host, say). Cheap: asked at every hand-out.
   */
  boolean usable();

  /** Kills it at once and removes what it left; safe from any thread, and more than once. */
  void discard();
}
