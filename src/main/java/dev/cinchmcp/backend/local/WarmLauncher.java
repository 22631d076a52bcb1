package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.PythonBootstrap;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What runs first in a sandbox started ahead of time: the interpreter comes up, writes {@link
 * #READY} on stdout, and blocks reading stdin. At hand-over the server writes the program where a
 * cold run has it ({@code /code/main.py}, {@code /code/main.js}), writes {@link #GO} and closes
 * stdin; the launcher answers with {@link #READY} once more (so that the server tells a sandbox
 * that died just before from a program that was killed) and starts the program exactly as a cold
 * run does. End-of-file without {@link #GO} means the server is gone: the launcher exits at once,
 * and the sandbox with it (~60 ms measured), whatever killed the server.
 *
 * <p>The program must not see that it waited (checked by LocalSandboxWarmSemanticsTest): stdin is
 * then at end-of-file as in a cold run; the launcher leaves no names behind; Python's own start
 * (the {@code -c} bootstrap, its {@code sys.argv}, tracebacks without the bootstrap's frame) is the
 * cold one, and no module is imported that a cold start does not import; Node loads the program as
 * its main module by its own start-up path ({@code --require} of the launcher blocks before it), so
 * stack traces, {@code process.argv} and {@code require.main} are a cold run's, the launcher takes
 * itself out of {@code process.execArgv} and {@code require.cache}, and {@code process.uptime()}
 * leaves out the wait. What cannot be hidden: the sandbox's own clock ({@code /proc/uptime}, {@code
 * CLOCK_MONOTONIC}) counts from the sandbox's boot, so it includes the wait.
 */
final class WarmLauncher {

  /** The byte the launcher writes on stdout once it waits (ASCII ACK); never a program's. */
  static final int READY = 0x06;

  /** What the server writes on stdin at hand-over, before closing it. */
  static final String GO = "go";

  /** The Node launcher's file in /code: deleted on the host once it is loaded (ready). */
  static final String NODE_FILE = "cinchmcp-warm.js";

  /**
   * {@code sh -c SUPERVISOR cinchmcp-warm LIMIT runsc ...}, around a sandbox started ahead: runs
   * runsc with the shell's stdin (fd 3: an asynchronous command would get /dev/null), keeps none of
   * it itself, and exits with runsc's status. The first SIGTERM starts the backstop: a background
   * sleep of LIMIT, then SIGKILL to runsc; it is stopped when runsc ends first. ({@code timeout}
   * around a waiting sandbox would count the wait.)
   */
  static final String SUPERVISOR =
      String.join(
          "\n",
          "limit=$1; shift",
          "exec 3<&0",
          "\"$@\" <&3 3<&- &",
          "p=$!",
          "exec 3<&- 0</dev/null",
          "armed=",
          "backstop() { trap 'kill $s 2>/dev/null; exit 0' TERM; sleep \"$limit\" & s=$!; wait $s;"
              + " kill -9 $p 2>/dev/null; }",
          "arm() { [ -n \"$armed\" ] || { backstop & armed=$!; }; }",
          "trap arm TERM",
          "while :; do wait $p; status=$?; kill -0 $p 2>/dev/null || break; done",
          "[ -z \"$armed\" ] || kill $armed 2>/dev/null",
          "exit $status");

  /** How long a start ahead may take before it is given up (a cold start takes ~0.2-0.5 s). */
  private static final long READY_TIMEOUT_SECONDS = 20;

  private WarmLauncher() {}

  /**
   * Waits for the launcher's {@link #READY} on the sandbox's stdout (read on one of {@code
   * threads}); throws, saying {@code otherwise}, when another byte or none comes.
   */
  static void awaitReady(Process sandbox, ExecutorService threads, String otherwise)
      throws IOException, InterruptedException {
    InputStream stdout = sandbox.getInputStream();
    Callable<Integer> readFirst = stdout::read;
    Future<Integer> first = threads.submit(readFirst);
    int read;
    try {
      read = first.get(READY_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new IOException("the sandbox was not ready within " + READY_TIMEOUT_SECONDS + " s");
    } catch (ExecutionException e) {
      throw new IOException("the sandbox's output could not be read", e.getCause());
    } finally {
      first.cancel(true);
    }
    if (read != READY) {
      throw new IOException(otherwise);
    }
  }

  /** Lets the launcher go: {@link #GO} on its stdin, which is then closed. */
  static void go(Process sandbox) throws IOException {
    try (OutputStream stdin = sandbox.getOutputStream()) {
      stdin.write(GO.getBytes(StandardCharsets.US_ASCII));
    }
  }

  /**
   * The {@code -c} source of a waiting Python: import {@code preload} (a data sandbox's heavy
   * modules; none for a plain one), wait, then the cold run's bootstrap. A module that fails to
   * import is left out: the program's own import then fails as it would in a cold run.
   */
  static String python(boolean oneArena, List<String> preload) {
    return PythonBootstrap.withWait(
        String.join(
            "\n",
            // os is imported by every Python start (site), so this adds no module
            "import os",
            preload.isEmpty() ? "" : preloading(preload),
            "os.write(1, b'\\x06')",
            "_got = b''",
            "while True:",
            "    _chunk = os.read(0, 64)",
            "    if not _chunk:",
            "        break",
            "    _got += _chunk",
            "if _got != b'" + GO + "':",
            "    os._exit(0)",
            "os.write(1, b'\\x06')",
            "del _got, _chunk, os",
            ""),
        oneArena);
  }

  /**
   * Imports the modules, with matplotlib's font list in place first (as the bootstrap would give it
   * to the program's own import): one name per line, checked by the caller to be a dotted name.
   */
  private static String preloading(List<String> modules) {
    StringBuilder code = new StringBuilder("import sys\n");
    if (modules.stream().anyMatch(module -> module.startsWith("matplotlib"))) {
      code.append(PythonBootstrap.FONT_LIST);
    }
    code.append("for _m in (");
    for (String module : modules) {
      code.append('\'').append(module).append("', ");
    }
    return code.append(
            "):\n    try:\n        __import__(_m)\n    except Exception:\n        pass\ndel _m, sys")
        .toString();
  }

  /** The Node preload ({@code --require}): wait, then let Node load the main module. */
  static String node() {
    return String.join(
        "\n",
        "'use strict';",
        // A Worker thread runs the preloads again (its execArgv is the process's own): there, the
        // launcher does nothing. Its argv has no script yet, and its chdir is a stub.
        "if (process.argv.length >= 2 && process.chdir.name !== 'unavailableInWorker') {",
        "  const fs = require('fs');",
        "  fs.writeSync(1, '\\x06');",
        "  const waitFrom = process.uptime();",
        "  const chunk = Buffer.allocUnsafe(64);",
        "  let got = '';",
        "  for (;;) {",
        "    let n;",
        "    try {",
        "      n = fs.readSync(0, chunk, 0, chunk.length, null);",
        "    } catch (e) {",
        "      if (e.code === 'EAGAIN' || e.code === 'EINTR') continue;",
        "      process.reallyExit(0);",
        "    }",
        "    if (n === 0) break;",
        "    got += chunk.latin1Slice(0, n);",
        "  }",
        "  if (got !== '" + GO + "') process.reallyExit(0);",
        "  fs.writeSync(1, '\\x06');",
        "  const waited = process.uptime() - waitFrom;",
        "  const realUptime = process.uptime;",
        "  process.uptime = function uptime() {",
        "    return realUptime.call(process) - waited;",
        "  };",
        // The input launcher starts the program with process.execArgv: it must not wait again.
        "  const at = process.execArgv.indexOf('/code/" + NODE_FILE + "');",
        "  if (at > 0) process.execArgv.splice(at - 1, 2);",
        "  delete require.cache[__filename];",
        "}",
        "");
  }
}
