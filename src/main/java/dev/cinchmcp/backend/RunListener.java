package dev.cinchmcp.backend;

/** Events of one run for the client while it waits; messages never hold a secret. */
public interface RunListener {

  RunListener NONE = new RunListener() {};

  default void sent(int attempt) {}

  default void log(Level level, String message) {}

  enum Level {
    DEBUG,
    INFO,
    WARNING,
    ERROR
  }
}
