package dev.cinchmcp.backend.docker;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.PythonBootstrap;
import dev.cinchmcp.backend.SandboxFacts;
import java.time.Duration;
import java.util.List;

/**
 * The body of {@code POST /containers/create}: the walls of the sandbox, each a field. The code
 * comes on stdin (a read-only root refuses {@code PUT /archive}): a reader in the image's own
 * interpreter writes it to {@value #CODE_DIR} and runs it. PID 1 is {@code timeout}, which a
 * program cannot kill: a backstop one second after the wall clock, whatever becomes of the server.
 */
final class ContainerSpec {

  static final String CODE_DIR = "/tmp/code";

  /** The environment of every program, complete (the image's own is kept beneath it). */
  private static final List<String> ENVIRONMENT =
      List.of("PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/tmp", "LANG=C.UTF-8", "LC_CTYPE=C.UTF-8");

  private static final String PYTHON_READER =
      String.join(
          "\n",
          "import os, sys",
          "n = int(sys.argv[1])",
          "code = bytearray()",
          "while len(code) < n:",
          "    chunk = os.read(0, n - len(code))",
          "    if not chunk:",
          "        break",
          "    code += chunk",
          "null = os.open('/dev/null', os.O_RDONLY)",
          "os.dup2(null, 0)",
          "os.close(null)",
          "os.makedirs('" + CODE_DIR + "', exist_ok=True)",
          "with open('" + CODE_DIR + "/main.py', 'wb') as f:",
          "    f.write(code)",
          "os.execv(sys.executable, [sys.executable, '-c', sys.argv[2], '"
              + CODE_DIR
              + "/main.py'])",
          "");

  /**
   * How the Node readers start the program: as {@code node main.js}. A child the program starts
   * with {@code process.execArgv} (the input launcher does) gets the heap limit, not the reader.
   */
  static final String NODE_MAIN =
      String.join(
          "",
          "process.argv.splice(1, 1, '" + CODE_DIR + "/main.js');",
          "const e = process.execArgv.findIndex(a => a === '-e' || a === '--eval');",
          "if (e >= 0) process.execArgv.splice(e, 2);",
          "require('module').runMain();");

  private static final String NODE_READER =
      String.join(
          "",
          "const fs = require('fs');",
          "const n = Number(process.argv[1]);",
          "const code = Buffer.alloc(n);",
          "let got = 0;",
          "while (got < n) { const r = fs.readSync(0, code, got, n - got, null); if (r === 0) break;"
              + " got += r; }",
          "fs.mkdirSync('" + CODE_DIR + "', { recursive: true });",
          "fs.writeFileSync('" + CODE_DIR + "/main.js', code.subarray(0, got));",
          NODE_MAIN);

  private ContainerSpec() {}

  /** The body for a cold run of {@code codeBytes} of code (which then comes on stdin). */
  static ObjectNode of(ContainerRun.Parts parts, Language language, int codeBytes) {
    String limit = Long.toString(parts.settings().wallClock().toSeconds() + 1); // the grace
    return spec(
        parts,
        language,
        List.of("timeout", "-s", "KILL", limit),
        language == Language.PYTHON
            ? List.of("-c", PYTHON_READER, Integer.toString(codeBytes), PythonBootstrap.SOURCE)
            : List.of("-e", NODE_READER, Integer.toString(codeBytes)));
  }

  /**
   * The body for a container started ahead ({@link WaitingContainer}): {@link #of}'s walls, with
   * its launcher ({@link WaitingLaunchers}). The backstop counts from the hand-over: the launcher
   * sends PID 1 a SIGCONT, on which GNU {@code timeout -s CONT -k LIMIT BUDGET} arms its SIGKILL,
   * LIMIT seconds later. One never handed a program gets the same at {@code budget}.
   */
  static ObjectNode waiting(ContainerRun.Parts parts, Language language, Duration budget) {
    String limit = Long.toString(parts.settings().wallClock().toSeconds() + 1);
    return spec(
        parts,
        language,
        List.of("timeout", "-s", "CONT", "-k", limit, Long.toString(budget.toSeconds())),
        language == Language.PYTHON
            ? List.of("-c", WaitingLaunchers.python(), CODE_DIR + "/main.py")
            : List.of("-e", WaitingLaunchers.node()));
  }

  /** {@code backstop}, the interpreter with its options, then {@code program}. */
  private static ObjectNode spec(
      ContainerRun.Parts parts, Language language, List<String> backstop, List<String> program) {
    DockerSettings settings = parts.settings();
    String runtime = parts.runtime().runtime();
    boolean gvisor = parts.runtime().gvisor();
    ObjectNode spec = Engine.JSON.createObjectNode();
    spec.put("Image", settings.image(language));
    spec.put("User", "65534:65534");
    spec.put("WorkingDir", "/tmp");
    spec.put("Hostname", "sandbox");
    spec.put("NetworkDisabled", true);
    spec.put("AttachStdin", true);
    spec.put("AttachStdout", true);
    spec.put("AttachStderr", true);
    spec.put("OpenStdin", true);
    spec.put("StdinOnce", true);
    spec.put("Tty", false);
    spec.putArray("Entrypoint"); // the image's own would run first, with our command as arguments
    ArrayNode cmd = spec.putArray("Cmd");
    backstop.forEach(cmd::add);
    if (language == Language.PYTHON) {
      cmd.add("python3");
    } else {
      // Its heap limit makes a heap bomb end with V8's clear "heap out of memory" error.
      cmd.add("node").add("--max-old-space-size=" + settings.memoryMebibytes() * 3 / 4);
    }
    program.forEach(cmd::add);
    ArrayNode env = spec.putArray("Env");
    ENVIRONMENT.forEach(env::add);
    spec.putObject("Labels").put(Labels.OWNER, parts.labels().owner());

    ObjectNode host = spec.putObject("HostConfig");
    host.put("NetworkMode", "none");
    host.put("ReadonlyRootfs", true);
    host.putObject("Tmpfs")
        .put("/tmp", "rw,nosuid,nodev,mode=1777,size=" + SandboxFacts.TMP_MEGABYTES + "m");
    host.put("Memory", settings.memoryBytes());
    host.put("MemorySwap", settings.memoryBytes()); // equal to Memory: no swap
    host.put("NanoCpus", Math.round(settings.cpuShare() * 1e9));
    host.putArray("CapDrop").add("ALL");
    host.putArray("SecurityOpt").add("no-new-privileges");
    host.put("IpcMode", "private");
    host.put("AutoRemove", true);
    host.put("Privileged", false);
    host.putArray("Binds");
    ArrayNode ulimits = host.putArray("Ulimits");
    ulimits.addObject().put("Name", "nofile").put("Soft", 1024).put("Hard", 1024);
    if (gvisor) {
      // PidsLimit counts gVisor's own host threads (Sentry and gofer ~40, ptrace stubs per
      // process: 63 processes crash the sandbox at 512, are refused cleanly at 2176);
      // RLIMIT_NPROC, which gVisor enforces inside, holds the program's own.
      host.put("PidsLimit", 128 + 32 * SandboxFacts.MAX_PROCESSES);
      ulimits
          .addObject()
          .put("Name", "nproc")
          .put("Soft", SandboxFacts.MAX_PROCESSES)
          .put("Hard", SandboxFacts.MAX_PROCESSES);
    } else {
      // Under runc RLIMIT_NPROC would count every process of uid 65534 on the machine; the pids
      // cgroup counts this container's alone.
      host.put("PidsLimit", SandboxFacts.MAX_PROCESSES);
    }
    if (runtime != null) {
      host.put("Runtime", runtime);
    }
    return spec;
  }
}
