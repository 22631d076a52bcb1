package dev.cinchmcp.cli;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code CINCH_LOG_LEVEL}: how much the server writes on stderr. slf4j-simple reads its levels from
 * system properties once, when the first logger is made, so {@link #apply} must run before anything
 * touches a logger.
 */
final class LogLevel {

  static final String VARIABLE = "CINCH_LOG_LEVEL";
  static final List<String> LEVELS = List.of("error", "warn", "info", "debug", "trace", "off");
  static final String DEFAULT = "info";

  static final String DEFAULT_LEVEL_PROPERTY = "org.slf4j.simpleLogger.defaultLogLevel";
  static final String SDK_LEVEL_PROPERTY = "org.slf4j.simpleLogger.log.io.modelcontextprotocol";

  private LogLevel() {}

  /** The level the variable names, lower case; empty when unset or not a level. */
  static Optional<String> parse(String raw) {
    if (raw == null || raw.isBlank()) {
      return Optional.empty();
    }
    String level = raw.strip().toLowerCase(Locale.ROOT);
    return LEVELS.contains(level) ? Optional.of(level) : Optional.empty();
  }

  /** Sets the level; a bad value only warns on err (a server that fails to start says nothing). */
  static void apply(Map<String, String> env, PrintStream err) {
    String raw = env.get(VARIABLE);
    Optional<String> level = parse(raw);
    if (level.isEmpty()) {
      if (raw != null && !raw.isBlank()) {
        err.printf(
            "cinch-mcp: warning: %s must be one of %s (was \"%s\"); using %s.%n",
            VARIABLE, String.join(", ", LEVELS), raw.strip(), DEFAULT);
      }
      return;
    }
    System.setProperty(DEFAULT_LEVEL_PROPERTY, level.get());
    // The MCP SDK narrates every request at info, so simplelogger.properties keeps it at warn. A
    // quieter choice quiets it too; a louder one leaves it at warn, where it says what matters.
    if (level.get().equals("error") || level.get().equals("off")) {
      System.setProperty(SDK_LEVEL_PROPERTY, level.get());
    }
  }
}
