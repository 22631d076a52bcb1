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
 * A sandbox started ahead writes {@link #READY} and blocks on stdin; at hand-over the server writes
 * the program, {@link #GO} and closes stdin, and the launcher answers {@link #READY} again and runs
 * it as cold. End-of-file alone: exit. The program must not see that it waited.
 */
final class WarmLauncher {

  /** ASCII ACK: never a program's. */
  static final int READY = 0x06;

  static final String GO = "go";

  /** The Node launcher's file in /code, deleted on the host once loaded. */
  static final String NODE_FILE = "cinchmcp-warm.js";

  /**
   * {@code sh -c SUPERVISOR cinchmcp-warm LIMIT runsc ...}: runsc gets the shell's stdin (fd 3: an
   * asynchronous command would get /dev/null); the first SIGTERM arms the backstop (sleep LIMIT,
   * then SIGKILL). {@code timeout} would count the wait.
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

  /** A cold start takes ~0.2-0.5 s. */
  private static final long READY_TIMEOUT_SECONDS = 20;

  private WarmLauncher() {}

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

  static void go(Process sandbox) throws IOException {
    try (OutputStream stdin = sandbox.getOutputStream()) {
      stdin.write(GO.getBytes(StandardCharsets.US_ASCII));
    }
  }

  /**
   * Imports {@code preload} (one that fails then fails as cold), waits, then the cold bootstrap.
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

  /** With matplotlib's font list in place first; names checked by the caller to be dotted names. */
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
        "  const waited = process.uptime() - waitFrom, realUptime = process.uptime;",
        "  process.uptime = function uptime() { return realUptime.call(process) - waited; };",
        // The input launcher starts the program with process.execArgv: it must not wait again.
        "  const at = process.execArgv.indexOf('/code/" + NODE_FILE + "');",
        "  if (at > 0) process.execArgv.splice(at - 1, 2);",
        "  delete require.cache[__filename];",
        "}",
        "");
  }
}
