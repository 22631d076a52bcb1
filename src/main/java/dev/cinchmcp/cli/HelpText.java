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
    SandboxLimits limits = SandboxLimits.SERVICE;
    // The variables' names are written out (they are the documented interface); every default and
    // bound comes from where the server reads it.
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
          CINCH_BASE_URL    The API's address (default %s).
          CINCH_TIMEOUT_MS  How long to wait for one run's answer, in ms (default %d).
          CINCH_BACKEND     auto (default: the API with a key, else local gVisor, else a container
                            engine), cinch, local or docker.
          CINCH_RUNSC       gVisor's runsc for local runs (default: runsc on PATH).
          CINCH_LOCAL_POOL  Local sandboxes per language started ahead of time, 0 to %d (default %d);
                            0: every local run starts its own (slower; nothing held while idle).
          CINCH_SANDBOX_TIME_LIMIT_S, CINCH_SANDBOX_MEMORY_MB, CINCH_SANDBOX_CPUS
                            The local and docker sandboxes' limits: seconds (%d to %d, default %d),
                            MB of memory (%d to %d, default %d), CPUs
                            (%s to this machine's cores, default %s). The Cinch API keeps its own.
          CINCH_DOCKER_PYTHON_IMAGE, CINCH_DOCKER_NODE_IMAGE
                            The docker backend's images (default %s, %s).
          CINCH_DOCKER_RUNTIME
                            The engine runtime, e.g. runsc or runc (default: runsc when offered,
                            else the engine's default in its own VM; on Linux runc only when set).
          CINCH_DOCKER_POOL Docker containers per language started ahead of time, 0 to %d
                            (default %d); 0: every docker run starts its own (slower; nothing held idle).
          DOCKER_HOST       Where the engine is (default: the Docker context, then the usual
                            sockets and pipes of Docker Desktop, OrbStack, Colima, Podman).
          CINCH_FAST_START  0: a plain java -jar makes no class-data archive and never restarts itself.
          CINCH_LOG_LEVEL   Log level on stderr: %s (default %s).

        The sandbox:
        %s

        Exit codes:
          %d  success; with --check: calls will work
          %d  --check found a problem (the report says which and what to do)
          %d  usage error: an unknown option

        The server writes only JSON-RPC on stdout; its log goes to stderr.
        """
        .formatted(
            version,
            USAGE,
            Settings.DEFAULT_BASE_URI,
            Settings.DEFAULT_TIMEOUT.toMillis(),
            Settings.MAX_LOCAL_POOL,
            Settings.DEFAULT_LOCAL_POOL,
            SandboxLimits.MIN_TIME_LIMIT_SECONDS,
            SandboxLimits.MAX_TIME_LIMIT_SECONDS,
            limits.timeLimitSeconds(),
            SandboxLimits.MIN_MEMORY_MEGABYTES,
            SandboxLimits.MAX_MEMORY_MEGABYTES,
            limits.memoryMegabytes(),
            SandboxLimits.number(SandboxLimits.MIN_CPUS),
            SandboxLimits.number(limits.cpus()),
            DockerOptions.DEFAULT_PYTHON_IMAGE,
            DockerOptions.DEFAULT_NODE_IMAGE,
            DockerOptions.MAX_POOL,
            DockerOptions.DEFAULT_POOL,
            String.join(", ", LogLevel.LEVELS),
            LogLevel.DEFAULT,
            wrap("  ", sandbox),
            Cli.OK,
            Cli.CHECK_FAILED,
            Cli.USAGE);
  }

  /** Lines of at most {@value #WIDTH} characters, each indented. */
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
