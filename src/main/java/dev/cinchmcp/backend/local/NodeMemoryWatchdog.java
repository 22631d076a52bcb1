package dev.cinchmcp.backend.local;

/**
 * Holds a Node program to its memory where no host cgroup can: a script loaded first ({@code node
 * --require}) starts a worker thread that reads the resident memory every 10 ms and kills the
 * process, with a cgroup kill's note, once it grew by more than the allowance.
 *
 * <p>Measured under gVisor, no in-sandbox limit holds Node: RLIMIT_AS stops Node from starting or,
 * above V8's reservations (~3x the heap), kills ordinary programs while letting a 400 MB Buffer
 * through; gVisor does not enforce RLIMIT_DATA; {@code --max-old-space-size} does not count
 * Buffers. One allocation can overshoot by a 10 ms tick: the weaker guarantee, and the tool says
 * so.
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
