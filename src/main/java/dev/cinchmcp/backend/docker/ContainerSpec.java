package dev.cinchmcp.backend.docker;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.PythonBootstrap;
import dev.cinchmcp.backend.SandboxFacts;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

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

  /**
   * A container started ahead ({@link WaitingContainer}) runs a launcher first: the interpreter
   * comes up, writes {@link #MARK} and blocks on stdin. At hand-over the server writes {@code
   * LENGTH TOKEN\n} and the code; the launcher writes it where a cold run has it, sends PID 1 the
   * SIGCONT that starts the backstop, writes {@link #MARK} again and runs it in the same
   * interpreter. An end mark (token, exit status) then goes last on stdout and stderr, so the
   * server answers at once, not tens of ms later with the engine (Node: not after an uncaught
   * exception). The program sees what a cold run shows it, but: PID 1's age includes the wait; a
   * Python program is PID 3; Node's {@code process.emit} is a wrapper.
   */
  static final int MARK = 0x06;

  /** SIGCONT on Linux (every architecture an engine runs containers on here: x86-64, arm64). */
  private static final int SIGCONT = 18;

  /** {@link #MARK}, a 32-digit token, a space, a 3-digit status, a newline. */
  static final int END_MARK_LENGTH = 1 + 32 + 1 + 3 + 1;

  /** A fresh token for one hand-over: what a program's own output cannot guess. */
  static String newToken() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    return String.format("%016x%016x", random.nextLong(), random.nextLong());
  }

  /** The end mark up to its status: {@link #MARK}, the token and a space. */
  static byte[] endMarkPrefix(String token) {
    return ((char) MARK + token + " ").getBytes(StandardCharsets.US_ASCII);
  }

  /** What goes on the container's stdin at hand-over: the length, the token, then the code. */
  static byte[] handOver(byte[] code, String token) {
    byte[] head = (code.length + " " + token + "\n").getBytes(StandardCharsets.US_ASCII);
    return ByteBuffer.allocate(head.length + code.length).put(head).put(code).array();
  }

  /** The waiting launcher's {@code python3 -c} source: wait, then the cold run's bootstrap. */
  private static String waitingPython() {
    return PythonBootstrap.withWait(
        String.join(
            "\n",
            "import os", // imported by every Python start (site): adds no module
            "def _wait():",
            "    os.write(1, b'\\x06')",
            "    got, have, need = [], 0, -1",
            "    while need < 0 or have < need:",
            "        chunk = os.read(0, 65536 if need < 0 else min(1 << 20, need - have))",
            "        if not chunk:",
            "            os._exit(0)", // the server is gone: nothing ran
            "        got.append(chunk)",
            "        have += len(chunk)",
            "        if need < 0:",
            "            head = b''.join(got)",
            "            if b'\\n' in head:",
            "                line, _, rest = head.partition(b'\\n')",
            "                length, token = line.split(b' ')",
            "                need, got, have = int(length), [rest], len(rest)",
            "            elif len(head) > 64:",
            "                os._exit(2)",
            "    os.makedirs('" + CODE_DIR + "', exist_ok=True)",
            "    fd = os.open('"
                + CODE_DIR
                + "/main.py', os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)",
            "    code = memoryview(b''.join(got))",
            "    while code:",
            "        code = code[os.write(fd, code):]",
            "    os.close(fd)",
            "    fd = os.open('/dev/null', os.O_RDONLY)",
            "    os.dup2(fd, 0)",
            "    os.close(fd)",
            "    os.kill(1, " + SIGCONT + ")", // the backstop counts from now
            "    os.write(1, b'\\x06')",
            // This process waits for the program and says how it ended (the end mark), so that
            // the server answers then, not once the engine has taken the container down.
            "    child = os.fork()",
            "    if child:",
            "        status = os.waitstatus_to_exitcode(os.waitpid(child, 0)[1])",
            "        status = (status if status >= 0 else 128 - status) & 255",
            "        mark = b'\\x06' + token + b' %03d\\n' % status",
            "        for fd in (1, 2):",
            "            try:",
            "                os.write(fd, mark)",
            "            except OSError:",
            "                pass",
            "        os._exit(status)",
            "_wait()",
            "del _wait, os",
            ""),
        false);
  }

  /** The waiting launcher's {@code node -e} source: wait, then load as the cold reader does. */
  private static String waitingNode() {
    return String.join(
        "\n",
        "const fs = require('fs');",
        "const [n, code] = (() => {",
        "  fs.writeSync(1, '\\x06');",
        "  const waitFrom = process.uptime();",
        "  const read = (buffer, offset, length) => {",
        "    for (;;) {",
        "      try {",
        "        return fs.readSync(0, buffer, offset, length, null);",
        "      } catch (error) {",
        "        if (error.code === 'EOF') return 0;",
        "        if (error.code === 'EINTR') continue;",
        // A non-blocking stdin: wait a little rather than spin while the container waits.
        "        if (error.code !== 'EAGAIN') process.reallyExit(2);",
        "        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);",
        "      }",
        "    }",
        "  };",
        "  let head = Buffer.alloc(0);",
        "  const chunk = Buffer.allocUnsafe(65536);",
        "  let newline = -1;",
        "  while (newline < 0) {",
        "    const got = read(chunk, 0, chunk.length);",
        "    if (got === 0) process.reallyExit(0);", // the server is gone: nothing ran
        "    head = Buffer.concat([head, chunk.subarray(0, got)]);",
        "    newline = head.indexOf(10);",
        "    if (newline < 0 && head.length > 64) process.reallyExit(2);",
        "  }",
        "  const [length, token] = head.subarray(0, newline).toString('latin1').split(' ');",
        "  const program = Buffer.alloc(Number(length));",
        "  let have = head.copy(program, 0, newline + 1);",
        "  while (have < program.length) {",
        "    const got = read(program, have, program.length - have);",
        "    if (got === 0) process.reallyExit(0);",
        "    have += got;",
        "  }",
        "  fs.mkdirSync('" + CODE_DIR + "', { recursive: true });",
        "  fs.writeFileSync('" + CODE_DIR + "/main.js', program);",
        "  process.kill(1, 'SIGCONT');", // the backstop counts from now
        "  fs.writeSync(1, '\\x06');",
        "  const waited = process.uptime() - waitFrom, realUptime = process.uptime;",
        "  process.uptime = function uptime() { return realUptime.call(process) - waited; };",
        // The end mark once the 'exit' event has run (every listener of the program's included),
        // so that the server answers then, not once the engine has taken the container down. Not
        // after an uncaught exception: Node prints it after 'exit', and the engine's status is
        // waited for, as when the process is killed.
        "  const realEmit = process.emit;",
        "  let fatal = false;",
        "  process.emit = function emit(event, ...rest) {",
        "    if (event === 'uncaughtExceptionMonitor') fatal = true;",
        "    const result = Reflect.apply(realEmit, this, [event, ...rest]);",
        "    if (event === 'exit' && !fatal) {",
        "      const code = typeof process.exitCode === 'number' ? process.exitCode",
        "        : Number(rest[0]) || 0;",
        "      const mark = '\\x06' + token + ' ' + String(code & 255).padStart(3, '0') + '\\n';",
        "      try { fs.writeSync(1, mark); } catch {}",
        "      try { fs.writeSync(2, mark); } catch {}",
        "    }",
        "    return result;",
        "  };",
        "  return [program.length, program];",
        "})();",
        "let got = n;",
        NODE_MAIN,
        "");
  }

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
   * its launcher ({@link #MARK}). The backstop counts from the hand-over: the launcher sends PID 1
   * a SIGCONT, on which GNU {@code timeout -s CONT -k LIMIT BUDGET} arms its SIGKILL, LIMIT seconds
   * later. One never handed a program gets the same at {@code budget}.
   */
  static ObjectNode waiting(ContainerRun.Parts parts, Language language, Duration budget) {
    String limit = Long.toString(parts.settings().wallClock().toSeconds() + 1);
    return spec(
        parts,
        language,
        List.of("timeout", "-s", "CONT", "-k", limit, Long.toString(budget.toSeconds())),
        language == Language.PYTHON
            ? List.of("-c", waitingPython(), CODE_DIR + "/main.py")
            : List.of("-e", waitingNode()));
  }

  /** {@code backstop}, the interpreter with its options, then {@code program}. */
  private static ObjectNode spec(
      ContainerRun.Parts parts, Language language, List<String> backstop, List<String> program) {
    DockerSettings settings = parts.settings();
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
    if (parts.runtime().gvisor()) {
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
    if (parts.runtime().runtime() != null) {
      host.put("Runtime", parts.runtime().runtime());
    }
    return spec;
  }
}
