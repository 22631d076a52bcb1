package dev.cinchmcp.cli;

import dev.cinchmcp.config.Settings;
import dev.cinchmcp.config.Version;
import dev.cinchmcp.server.CinchMcpServer;
import dev.cinchmcp.transport.EarlyInput;
import dev.cinchmcp.transport.FirstLineHandOver;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The command line: reads the flags and runs the server, the self-check, or prints help or the
 * version. It takes its streams and environment as arguments and returns the exit code, so tests
 * run it in-process; {@code Main} only connects it to the real process.
 */
public final class Cli {

  static final int OK = 0;

  /** {@code --check} found that a call would not work. */
  static final int CHECK_FAILED = 1;

  /** A command line this program does not understand; 2 as most Unix tools use. */
  static final int USAGE = 2;

  /** What the command line asks for: one flag at most, or none for the stdio server. */
  enum Command {
    SERVE,
    HELP,
    VERSION,
    CHECK;

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

  static final class UsageException extends Exception {
    UsageException(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * Runs one command line and returns the exit code. {@code out} is the real stdout (JSON-RPC alone
   * in server mode); {@code firstLine}, what a fast launcher did with stdin's first line.
   */
  public int run(
      String[] args,
      InputStream in,
      OutputStream out,
      PrintStream err,
      Map<String, String> env,
      FirstLineHandOver firstLine) {
    // First, before any class below makes a logger: slf4j-simple reads the level only once.
    LogLevel.apply(env, err);

    Command command;
    try {
      command = Command.parse(List.of(args));
    } catch (UsageException e) {
      err.println("cinch-mcp: " + e.getMessage());
      err.println(HelpText.USAGE);
      err.println("Run with --help for more.");
      err.flush();
      return USAGE;
    }

    if (command == Command.SERVE) {
      // Before the server exists: a first server/discover is answered at once.
      InputStream input = EarlyInput.answerEarly(in, out, firstLine);
      new CinchMcpServer(Settings.fromEnvironment(env)).serve(input, out);
      return OK;
    }
    PrintStream text = new PrintStream(out, false, StandardCharsets.UTF_8);
    try {
      return switch (command) {
        case HELP -> print(text, HelpText.full(Version.get()));
        case VERSION -> print(text, "cinch-mcp " + Version.get() + "\n");
        case CHECK -> new SelfCheck(Settings.fromEnvironment(env)).run(text);
        case SERVE -> throw new AssertionError("handled above");
      };
    } finally {
      text.flush();
    }
  }

  private static int print(PrintStream out, String text) {
    out.print(text);
    return OK;
  }
}
