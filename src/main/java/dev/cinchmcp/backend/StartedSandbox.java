package dev.cinchmcp.backend;

/** A sandbox started ahead of time that waits for exactly one program ({@link WarmPool}). */
public interface StartedSandbox {

  /** Blocks until it waits for its program; throws when it died or was discarded. */
  void awaitReady() throws Exception;

  /** Alive, and nothing it was started from has changed (an upgraded interpreter). Cheap. */
  boolean usable();

  /** SIGKILL to its processes, waiting for nothing; safe from any thread. */
  void kill();

  /** Kills it at once and removes what it left; safe from any thread, and more than once. */
  void discard();
}
