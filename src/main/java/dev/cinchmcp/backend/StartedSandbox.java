package dev.cinchmcp.backend;

/**
 * A sandbox started ahead of time that waits for exactly one program (see {@link WarmPool}). A
 * backend makes it with everything a cold run would have fixed before the program's first line
 * (limits, mounts, the interpreter up), and destroys it after its one use.
 */
public interface StartedSandbox {

  /**
   * Blocks until it waits for its program; throws when it will not (it died, or was discarded
   * meanwhile). The pool holds it while it starts, so that closing the pool can kill it then too.
   */
  void awaitReady() throws Exception;

  /**
   * Whether it can still take its program: it is alive, and nothing it was started from has changed
   * since (an interpreter upgraded on the host, say). Cheap: asked at every hand-out.
   */
  boolean usable();

  /**
   * Sends its processes SIGKILL, without waiting for anything: what closing the pool does to every
   * entry first, before removing any ({@link #discard()}). Safe from any thread.
   */
  void kill();

  /** Kills it at once and removes what it left; safe from any thread, and more than once. */
  void discard();
}
