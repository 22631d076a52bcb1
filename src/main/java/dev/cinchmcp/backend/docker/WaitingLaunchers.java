package dev.cinchmcp.backend.docker;

import dev.cinchmcp.backend.PythonBootstrap;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What runs first in a container started ahead ({@link WaitingContainer}): the interpreter comes
 * up, writes {@link #MARK} and blocks on stdin. At hand-over the server writes {@code LENGTH
 * TOKEN\n} and the code; the launcher writes it where a cold run has it, sends PID 1 the SIGCONT
 * that starts the backstop, writes {@link #MARK} again and runs it in the same interpreter. Once it
 * has ended, an end mark (token, exit status) goes last on stdout and stderr, so the server answers
 * then, not tens of ms later with the engine (Node: not after an uncaught exception).
 *
 * <p>The program sees what a cold run shows it, but: PID 1's age includes the wait; a Python
 * program is PID 3; Node's {@code process.emit} is a wrapper.
 */
final class WaitingLaunchers {

  /** The byte the launcher writes on stdout when it waits, and when it has its program (ACK). */
  static final int MARK = 0x06;

  /** SIGCONT on Linux (every architecture an engine runs containers on here: x86-64, arm64). */
  private static final int SIGCONT = 18;

  private WaitingLaunchers() {}

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

  /** The {@code python3 -c} source: wait, then the cold run's bootstrap. */
  static String python() {
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
            "    os.makedirs('" + ContainerSpec.CODE_DIR + "', exist_ok=True)",
            "    fd = os.open('"
                + ContainerSpec.CODE_DIR
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

  /** The {@code node -e} source: wait, then load the program as the cold reader does. */
  static String node() {
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
        "  fs.mkdirSync('" + ContainerSpec.CODE_DIR + "', { recursive: true });",
        "  fs.writeFileSync('" + ContainerSpec.CODE_DIR + "/main.js', program);",
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
        ContainerSpec.NODE_MAIN,
        "");
  }
}
