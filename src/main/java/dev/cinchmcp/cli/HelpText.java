package dev.cinchmcp.cli;

import dev.cinchmcp.backend.SandboxFacts;
import dev.cinchmcp.config.DockerOptions;
import dev.cinchmcp.config.SandboxLimits;
import dev.cinchmcp.config.Settings;

/** The text of {@code --help}, and the one-line usage shown after a usage error. */
final class HelpText {

  static final String USAGE = "Usage: java -jar cinch-mcp.jar [--check | --version | --help]";

  private static final int WIDTH = 100;

  private HelpText() {}

  static String full(String version) {
    return String.join(
        "\n",
        "cinch-mcp "
            + version
            + ": an MCP server with one tool, execute_code, that runs Python or JavaScript",
        "in a disposable Cinch sandbox (https://cinch.codes) instead of on your machine, or, with",
        "no key, in a local gVisor sandbox (Linux, gVisor's runsc installed), or in a container of",
        "a Docker-compatible engine (Docker Desktop, OrbStack, Colima, Rancher Desktop, Podman).",
        "",
        USAGE,
        "",
        "  (no option)   Serve MCP over stdin/stdout. MCP clients (Claude Desktop, Claude Code, Cursor,",
        "                VS Code) start it this way; run by hand it waits for JSON-RPC on stdin.",
        "  --check       Read the configuration as the server does, run one tiny program (at the API,",
        "                or locally) and report whether execute_code calls will work. The key is never",
        "                printed.",
        "  --version     Print the version.",
        "  --help, -h    Print this help.",
        "",
        "Environment:",
        "  "
            + Settings.API_KEY
            + "     Your Cinch API key (required for the API). Sent only to "
            + Settings.BASE_URL
            + ".",
        "  "
            + Settings.BASE_URL
            + "    The API's address (default "
            + Settings.DEFAULT_BASE_URI
            + ").",
        "  "
            + Settings.TIMEOUT_MS
            + "  How long to wait for one run's answer, in ms (default "
            + Settings.DEFAULT_TIMEOUT.toMillis()
            + ").",
        "  "
            + Settings.BACKEND
            + "     auto (default: the API with a key, else local gVisor, else a container",
        "                    engine), cinch, local or docker.",
        "  " + Settings.RUNSC + "       gVisor's runsc for local runs (default: runsc on PATH).",
        "  "
            + Settings.LOCAL_POOL
            + "  Local sandboxes per language started ahead of time, 0 to "
            + Settings.MAX_LOCAL_POOL
            + " (default "
            + Settings.DEFAULT_LOCAL_POOL
            + ");",
        "                    0: every local run starts its own (slower; nothing held while idle).",
        "  "
            + SandboxLimits.TIME_LIMIT_S
            + ", "
            + SandboxLimits.MEMORY_MB
            + ", "
            + SandboxLimits.CPUS,
        "                    The local and docker sandboxes' limits: seconds ("
            + SandboxLimits.MIN_TIME_LIMIT_SECONDS
            + " to "
            + SandboxLimits.MAX_TIME_LIMIT_SECONDS
            + ", default "
            + SandboxLimits.SERVICE.timeLimitSeconds()
            + "),",
        "                    MB of memory ("
            + SandboxLimits.MIN_MEMORY_MEGABYTES
            + " to "
            + SandboxLimits.MAX_MEMORY_MEGABYTES
            + ", default "
            + SandboxLimits.SERVICE.memoryMegabytes()
            + "), CPUs",
        "                    ("
            + SandboxLimits.number(SandboxLimits.MIN_CPUS)
            + " to this machine's cores, default "
            + SandboxLimits.number(SandboxLimits.SERVICE.cpus())
            + "). The Cinch API keeps its own.",
        "  " + DockerOptions.PYTHON_IMAGE + ", " + DockerOptions.NODE_IMAGE,
        "                    The docker backend's images (default "
            + DockerOptions.DEFAULT_PYTHON_IMAGE
            + ", "
            + DockerOptions.DEFAULT_NODE_IMAGE
            + ").",
        "  " + DockerOptions.RUNTIME,
        "                    The engine runtime, e.g. runsc or runc (default: runsc when offered,",
        "                    else the engine's default in its own VM; on Linux runc only when set).",
        "  "
            + DockerOptions.POOL
            + " Docker containers per language started ahead of time, 0 to "
            + DockerOptions.MAX_POOL,
        "                    (default "
            + DockerOptions.DEFAULT_POOL
            + "); 0: every docker run starts its own (slower; nothing held idle).",
        "  DOCKER_HOST       Where the engine is (default: the Docker context, then the usual",
        "                    sockets and pipes of Docker Desktop, OrbStack, Colima, Podman).",
        "  CINCH_FAST_START  0: a plain java -jar makes no class-data archive and never restarts itself.",
        "  "
            + LogLevel.VARIABLE
            + "   Log level on stderr: "
            + String.join(", ", LogLevel.LEVELS)
            + " (default "
            + LogLevel.DEFAULT
            + ").",
        "",
        "The sandbox:",
        wrap(
            "  ",
            "A new one for every program: "
                + SandboxFacts.SERVICE_RUNTIMES
                + " at the Cinch API (in the local sandbox, the versions installed there), standard"
                + " library only; no network; "
                + SandboxFacts.SERVICE_LIMITS
                + " (locally and in containers, unless set otherwise above); "
                + SandboxFacts.fileSystem()
                + ". "
                + SandboxFacts.outputCut()),
        "",
        "Exit codes:",
        "  " + Cli.OK + "  success; with --check: calls will work",
        "  "
            + Cli.CHECK_FAILED
            + "  --check found a problem (the report says which and what to do)",
        "  " + Cli.USAGE + "  usage error: an unknown option",
        "",
        "The server writes only JSON-RPC on stdout; its log goes to stderr.",
        "");
  }

  /** Breaks a sentence into lines of at most {@value #WIDTH} characters, each indented. */
  static String wrap(String indent, String text) {
    StringBuilder out = new StringBuilder();
    StringBuilder line = new StringBuilder(indent);
    for (String word : text.split(" ")) {
      if (line.length() > indent.length() && line.length() + 1 + word.length() > WIDTH) {
        out.append(line).append('\n');
        line.setLength(0);
        line.append(indent);
      }
      if (line.length() > indent.length()) {
        line.append(' ');
      }
      line.append(word);
    }
    return out.append(line).toString();
  }
}
