package dev.cinchmcp.backend.local;

/**
 * Holds a Node program to its memory where no host cgroup can: a script loaded before the program
 * ({@code node --require}) starts a worker thread that reads the process's resident memory every 10
 * ms and kills the process, with the same note a cgroup kill gets, once the program has grown by
 * more than its allowance past what Node itself used at start.
 *
 * <p>Why a watchdog: measured under gVisor, no in-sandbox limit holds Node. RLIMIT_AS either stops
 * Node from starting or, set above V8's reservations, kills ordinary programs (V8 reserves about
 * three times the heap it uses: a 150 MB heap needed 450 MB more address space) while still letting
 * a 400 MB Buffer through; RLIMIT_DATA is not enforced by gVisor; {@code --max-old-space-size} does
 * not count Buffers. A worker thread keeps watching while the program's own thread spins. A single
 * allocation can overshoot by what one 10 ms tick allows, so this is the weaker guarantee, and the
 * ready line and the tool description say so.
 */
final class NodeMemoryWatchdog {

  static final String FILE = "cinchmcp-memory-watchdog.js";

  /** What the watching thread itself adds to Node's memory (an isolate: ~14 MB measured). */
  static final long WATCHER_BYTES = 16L << 20;

  private NodeMemoryWatchdog() {}

  static String source(long allowanceBytes, String note) {
    return String.join(
        "\n",
        "'use strict';",
        "try {",
        "  const { Worker, isMainThread } = require('worker_threads');",
        // The program's own workers run the preloads too: one watcher, started by the main thread.
        "  if (isMainThread) {",
        "    const watcher = `",
        "      const { workerData } = require('worker_threads');",
        "      const fs = require('fs');",
        "      setInterval(() => {",
        "        if (process.memoryUsage.rss() - workerData > "
            + (allowanceBytes + WATCHER_BYTES)
            + ") {",
        "          const nl = String.fromCharCode(10);",
        "          try { fs.writeSync(2, nl + " + jsString(note) + " + nl); } catch (e) {}",
        "          process.kill(process.pid, 'SIGKILL');",
        "        }",
        "      }, 10);`;",
        // Node's own memory before the program's first line is the base.
        "    const base = process.memoryUsage.rss();",
        // No preloads in the watcher (execArgv): with them, each watcher would start another.
        "    new Worker(watcher, { eval: true, execArgv: [], workerData: base }).unref();",
        "  }",
        "} catch (e) {",
        "  process.kill(process.pid, 'SIGKILL');", // never run unwatched
        "}",
        "");
  }

  private static String jsString(String text) {
    // Inside a template literal too, so only plain characters: the note is our own text.
    if (!text.matches("[\\w\\s\\[\\]:.,()-]*")) {
      throw new IllegalArgumentException("not a plain note: " + text);
    }
    return "'" + text + "'";
  }
}
