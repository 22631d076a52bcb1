package dev.cinchmcp.backend;

/**
 * Events of one run that the client may want to hear about while it waits: the request leaving, and
 * notable moments worth a log message (a retry, a refused key). Messages never hold a secret.
 */
public interface RunListener {

  RunListener NONE = new RunListener() {};

  /** The program was handed to the sandbox (attempt 1, or a later one after a retry). */
  default void sent(int attempt) {}

  /** Something the client's log should show, at the given level. */
  default void log(Level level, String message) {}

  /** Levels that map onto MCP's logging levels. */
  enum Level {
    DEBUG,
    INFO,
    WARNING,
    ERROR
  }
}
