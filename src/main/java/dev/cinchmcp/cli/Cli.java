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
import java.util.Map;

/**
 * The command line: reads the flags and runs the server, the self-check, or prints help or the
 * version. It takes its streams and environment as arguments and returns the exit code, so tests
 * run it in-process; {@code Main} only connects it to the real process.
 */
public final class Cli {

  static final int OK = 0;

  static final int CHECK_FAILED = 1;

  /** A command line this program does not understand; 2 as most Unix tools use. */
  static final int USAGE = 2;

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
    if (args.length == 0) {
      // Before the server exists: a first server/discover is answered at once.
      InputStream input = EarlyInput.answerEarly(in, out, firstLine);
      new CinchMcpServer(Settings.fromEnvironment(env)).serve(input, out);
      return OK;
    }
    PrintStream text = new PrintStream(out, false, StandardCharsets.UTF_8);
    try {
      switch (args.length > 1 ? "" : args[0]) {
        case "--help", "-h" -> text.print(HelpText.full(Version.get()));
        case "--version", "-V" -> text.print("cinch-mcp " + Version.get() + "\n");
        case "--check" -> {
          return new SelfCheck(Settings.fromEnvironment(env)).run(text);
        }
        default -> {
          return usageError(args, err);
        }
      }
      return OK;
    } finally {
      text.flush();
    }
  }

  private static int usageError(String[] args, PrintStream err) {
    String arg = args[0];
    // Flags do not combine (what would "--check --version" mean?); saying so beats guessing.
    err.println(
        "cinch-mcp: "
            + (args.length > 1
                ? "expected at most one option, got " + args.length + ": " + String.join(" ", args)
                : arg.startsWith("-") ? "unknown option: " + arg : "unexpected argument: " + arg));
    err.println(HelpText.USAGE);
    err.println("Run with --help for more.");
    err.flush();
    return USAGE;
  }
}
