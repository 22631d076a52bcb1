package dev.cinchmcp.cli;

import dev.cinchmcp.backend.SandboxFacts;
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
import java.util.Locale;
import java.util.Map;

/**
 * The command line: the log level, then the server, the self-check, help or the version. It takes
 * its streams and environment and returns the exit code, so tests run it in-process.
 */
public final class Cli {

  static final int OK = 0;
  static final int CHECK_FAILED = 1;
  static final int USAGE = 2; // a command line not understood, as most Unix tools say it

  static final String USAGE_LINE = "Usage: java -jar cinch-mcp.jar [--check | --version | --help]";
  private static final int WIDTH = 100;

  static final String LOG_LEVEL = "CINCH_LOG_LEVEL";
  static final List<String> LOG_LEVELS = List.of("error", "warn", "info", "debug", "trace", "off");
  static final String DEFAULT_LOG_LEVEL = "info";
  static final String DEFAULT_LOG_PROPERTY = "org.slf4j.simpleLogger.defaultLogLevel";
  static final String SDK_LOG_PROPERTY = "org.slf4j.simpleLogger.log.io.modelcontextprotocol";

  /** {@code out}: JSON-RPC alone when serving; {@code firstLine}: what a fast launcher did. */
  public int run(
      String[] args,
      InputStream in,
      OutputStream out,
      PrintStream err,
      Map<String, String> env,
      FirstLineHandOver firstLine) {
    // First, before any class below makes a logger: slf4j-simple reads the level only once.
    applyLogLevel(env, err);
    if (args.length == 0) {
      // Before the server exists: a first server/discover is answered at once.
      InputStream input = EarlyInput.answerEarly(in, out, firstLine);
      new CinchMcpServer(Settings.fromEnvironment(env)).serve(input, out);
      return OK;
    }
    try (PrintStream text = new PrintStream(out, false, StandardCharsets.UTF_8)) {
      switch (args.length > 1 ? "" : args[0]) {
        case "--help", "-h" -> text.print(help());
        case "--version", "-V" -> text.print("cinch-mcp " + Version.get() + "\n");
        case "--check" -> {
          return new SelfCheck(Settings.fromEnvironment(env), text).run();
        }
        default -> {
          return usageError(args, err);
        }
      }
      return OK;
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
    err.println(USAGE_LINE);
    err.println("Run with --help for more.");
    err.flush();
    return USAGE;
  }

  static String help() {
    String sandbox =
        "A new one for every program: "
            + SandboxFacts.SERVICE_RUNTIMES
            + " at the Cinch API (in the local sandbox, the versions installed there), standard"
            + " library only; no network; "
            + SandboxFacts.SERVICE_LIMITS
            + " (locally and in containers, unless set otherwise above); "
            + SandboxFacts.fileSystem()
            + ". "
            + SandboxFacts.outputCut();
    // Defaults and bounds as written where the server reads them (CliTest holds them equal).
    return """
        cinch-mcp %s: an MCP server with one tool, execute_code, that runs Python or JavaScript
        in a disposable Cinch sandbox (https://cinch.codes) instead of on your machine, or, with
        no key, in a local gVisor sandbox (Linux, gVisor's runsc installed), or in a container of
        a Docker-compatible engine (Docker Desktop, OrbStack, Colima, Rancher Desktop, Podman).

        %s

          (no option)   Serve MCP over stdin/stdout. MCP clients (Claude Desktop, Claude Code, Cursor,
                        VS Code) start it this way; run by hand it waits for JSON-RPC on stdin.
          --check       Read the configuration as the server does, run one tiny program (at the API,
                        or locally) and report whether execute_code calls will work. The key is never
                        printed.
          --version     Print the version.
          --help, -h    Print this help.

        Environment:
          CINCH_API_KEY     Your Cinch API key (required for the API). Sent only to CINCH_BASE_URL.
          CINCH_BASE_URL    The API's address (default https://api.cinch.codes).
          CINCH_TIMEOUT_MS  How long to wait for one run's answer, in ms (default 20000).
          CINCH_BACKEND     auto (default: the API with a key, else local gVisor, else a container
                            engine), cinch, local or docker.
          CINCH_RUNSC       gVisor's runsc for local runs (default: runsc on PATH).
          CINCH_LOCAL_POOL  Local sandboxes per language started ahead of time, 0 to 8 (default 1);
                            0: every local run starts its own (slower; nothing held while idle).
          CINCH_SANDBOX_TIME_LIMIT_S, CINCH_SANDBOX_MEMORY_MB, CINCH_SANDBOX_CPUS
                            The local and docker sandboxes' limits: seconds (1 to 300, default 10),
                            MB of memory (64 to 8192, default 256), CPUs
                            (0.1 to this machine's cores, default 0.5). The Cinch API keeps its own.
          CINCH_DOCKER_PYTHON_IMAGE, CINCH_DOCKER_NODE_IMAGE
                            The docker backend's images (default python:3.12-slim, node:22-slim).
          CINCH_DOCKER_RUNTIME
                            The engine runtime, e.g. runsc or runc (default: runsc when offered,
                            else the engine's default in its own VM; on Linux runc only when set).
          CINCH_DOCKER_POOL Docker containers per language started ahead of time, 0 to 8
                            (default 1); 0: every docker run starts its own (slower; nothing held idle).
          DOCKER_HOST       Where the engine is (default: the Docker context, then the usual
                            sockets and pipes of Docker Desktop, OrbStack, Colima, Podman).
          CINCH_FAST_START  0: a plain java -jar makes no class-data archive and never restarts itself.
          CINCH_LOG_LEVEL   Log level on stderr: error, warn, info, debug, trace, off (default info).

        The sandbox:
        %s

        Exit codes:
          0  success; with --check: calls will work
          1  --check found a problem (the report says which and what to do)
          2  usage error: an unknown option

        The server writes only JSON-RPC on stdout; its log goes to stderr.
        """
        .formatted(Version.get(), USAGE_LINE, wrap("  ", sandbox));
  }

  /** Lines of at most {@value #WIDTH} characters, each indented. */
  static String wrap(String indent, String text) {
    StringBuilder out = new StringBuilder(indent);
    int line = 0; // where the last line starts
    for (String word : text.split(" ")) {
      if (out.length() - line > indent.length()) {
        boolean full = out.length() - line + 1 + word.length() > WIDTH;
        out.append(full ? "\n" + indent : " ");
        line = full ? out.length() - indent.length() : line;
      }
      out.append(word);
    }
    return out.toString();
  }

  /** Any case, blanks around; a bad value only warns: a server that fails to start says nothing. */
  static void applyLogLevel(Map<String, String> env, PrintStream err) {
    String raw = env.getOrDefault(LOG_LEVEL, "");
    String level = raw.strip().toLowerCase(Locale.ROOT);
    if (!LOG_LEVELS.contains(level)) {
      if (!raw.isBlank()) {
        err.printf(
            "cinch-mcp: warning: %s must be one of %s (was \"%s\"); using %s.%n",
            LOG_LEVEL, String.join(", ", LOG_LEVELS), raw.strip(), DEFAULT_LOG_LEVEL);
      }
      return;
    }
    System.setProperty(DEFAULT_LOG_PROPERTY, level);
    // The MCP SDK narrates every request at info, so simplelogger.properties keeps it at warn. A
    // quieter choice quiets it too; a louder one leaves it at warn, where it says what matters.
    if (level.equals("error") || level.equals("off")) {
      System.setProperty(SDK_LOG_PROPERTY, level);
    }
  }
}
