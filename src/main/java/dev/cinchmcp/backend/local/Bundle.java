package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One sandbox's OCI bundle on the host: a private directory (700) with the spec (600), runsc's log,
 * and a root whose only content is the program, as a file ({@code /code/main.py}): no argv size
 * limit, nothing else of the host visible, and the program cannot change its own source.
 */
record Bundle(Path dir) {

  private static final Set<PosixFilePermission> PRIVATE_DIR =
      PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> PRIVATE_FILE =
      PosixFilePermissions.fromString("rw-------");

  /**
   * Writes the bundle without its program: directories, spec, and what the argv needs besides
   * (Node's memory watchdog; a waiting sandbox's launcher, which in a data sandbox imports {@code
   * preload}).
   */
  void write(
      Language language,
      LocalSandboxSettings settings,
      SandboxHost host,
      boolean ahead,
      List<String> preload)
      throws IOException {
    Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PRIVATE_DIR));
    Path code = Files.createDirectories(dir.resolve("rootfs").resolve("code"));
    if (language == Language.PYTHON) {
      host.fontCache().addTo(dir.resolve("rootfs"));
    }
    boolean hostLimits = host.cgroups().isPresent();
    List<String> preloads = new ArrayList<>();
    if (language == Language.JAVASCRIPT && ahead) {
      Files.writeString(code.resolve(WarmLauncher.NODE_FILE), WarmLauncher.node());
      preloads.add("/code/" + WarmLauncher.NODE_FILE);
    }
    if (language == Language.JAVASCRIPT && !hostLimits) {
      // After the warm launcher: polling during the wait would count as the program's CPU.
      Files.writeString(
          code.resolve(WATCHDOG_FILE), nodeWatchdog(settings.memoryBytes(), settings.memoryNote()));
      preloads.add("/code/" + WATCHDOG_FILE);
    }
    // RLIMIT_AS only without a cgroup: it limits address space, not memory (see PythonBootstrap).
    long addressSpace = language == Language.PYTHON && !hostLimits ? settings.memoryBytes() : 0;
    List<String> args =
        host.runtimes()
            .command(
                language,
                codePath(language),
                settings.memoryMebibytes(),
                preloads,
                addressSpace > 0,
                ahead,
                preload);
    Path spec = dir.resolve("config.json");
    Files.createFile(spec, PosixFilePermissions.asFileAttribute(PRIVATE_FILE));
    Files.writeString(
        spec,
        OciSpec.json(args, language, addressSpace, settings.maxProcesses(), settings.hostEtc()));
  }

  void writeProgram(Program program) throws IOException {
    Path file = dir.resolve("rootfs").resolve(codePath(program.language()).substring(1));
    Files.writeString(file, program.code(), StandardCharsets.UTF_8);
  }

  static String codePath(Language language) {
    return language == Language.PYTHON ? "/code/main.py" : "/code/main.js";
  }

  Path logFile() {
    return dir.resolve("runsc.log");
  }

  /**
   * {@code runsc ... run --bundle DIR ID}. The host's read-only folders with exclusive file access:
   * the sandbox keeps what it looked up, a cold {@code import numpy, pandas} took 0.75-0.83x the
   * time (bench/file-access.mjs). It then misses host changes after its start; a waiting one is not
   * handed out once a package folder changed ({@link SandboxRuntimes#fingerprint}).
   */
  List<String> runscRun(Runsc runsc, String id) {
    return runsc.command(
        "--file-access-mounts=exclusive",
        "--log",
        logFile().toString(),
        "run",
        "--bundle",
        dir.toString(),
        id);
  }

  /** The first error runsc logged, cut to 400 characters; null when there is none. */
  String runscError() {
    try {
      for (String line : Files.readAllLines(logFile(), StandardCharsets.UTF_8)) {
        if (line.contains("\"level\":\"error\"") || line.startsWith("E")) {
          int msg = line.indexOf("\"msg\":\"");
          String text =
              msg >= 0
                  ? line.substring(msg + 7, Math.max(msg + 7, line.indexOf("\",\"", msg + 7)))
                  : line;
          return text.length() > 400 ? text.substring(0, 400) + "..." : text;
        }
      }
    } catch (IOException e) {
      return null;
    }
    return null;
  }

  void delete() {
    StateDirectory.deleteTree(dir);
  }

  private static final String WATCHDOG_FILE = "cinchmcp-memory-watchdog.js";

  /** What the watching thread itself adds to Node's memory (an isolate: ~14 MB measured). */
  private static final long WATCHER_BYTES = 16L << 20;

  /**
   * Holds a Node program to its memory where no host cgroup can: a script loaded first ({@code node
   * --require}) starts a worker thread that reads the resident memory every 10 ms and kills the
   * process, with a cgroup kill's note, once it grew by more than the allowance.
   *
   * <p>Measured under gVisor, no in-sandbox limit holds Node: RLIMIT_AS stops Node from starting
   * or, above V8's reservations (~3x the heap), kills ordinary programs while letting a 400 MB
   * Buffer through; gVisor does not enforce RLIMIT_DATA; {@code --max-old-space-size} does not
   * count Buffers. One allocation can overshoot by a 10 ms tick: the weaker guarantee, and the tool
   * says so.
   */
  static String nodeWatchdog(long allowanceBytes, String note) {
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
