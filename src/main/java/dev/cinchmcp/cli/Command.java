package dev.cinchmcp.cli;

import java.util.List;

/** What the command line asks for: one flag at most, or none for the stdio server. */
enum Command {
  SERVE,
  HELP,
  VERSION,
  CHECK;

  /** A command line this program does not understand; the message says what was wrong. */
  static final class UsageException extends Exception {
    UsageException(String message) {
      super(message, null, false, false);
    }
  }

  static Command parse(List<String> args) throws UsageException {
    if (args.isEmpty()) {
      return SERVE;
    }
    if (args.size() > 1) {
      // Flags do not combine (what would "--check --version" mean?); saying so beats guessing.
      throw new UsageException(
          "expected at most one option, got " + args.size() + ": " + String.join(" ", args));
    }
    String arg = args.get(0);
    return switch (arg) {
      case "--help", "-h" -> HELP;
      case "--version", "-V" -> VERSION;
      case "--check" -> CHECK;
      default ->
          throw new UsageException(
              arg.startsWith("-") ? "unknown option: " + arg : "unexpected argument: " + arg);
    };
  }
}
