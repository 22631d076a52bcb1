package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.PythonBootstrap;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** One sandbox's private OCI bundle: spec, runsc's log, and a root holding only the program. */
record Bundle(Path dir) {

  private static final Set<PosixFilePermission> PRIVATE_DIR =
      PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> PRIVATE_FILE =
      PosixFilePermissions.fromString("rw-------");

  void write(Language language, SandboxHost host, boolean ahead, List<String> preload)
      throws IOException {
    LocalSandboxSettings settings = host.settings();
    Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PRIVATE_DIR));
    Path code = Files.createDirectories(dir.resolve("rootfs").resolve("code"));
    boolean hostLimits = host.cgroups().isPresent();
    List<String> args =
        new ArrayList<>(List.of(host.runtimes().interpreter(language).orElseThrow()));
    long addressSpace = 0; // RLIMIT_AS only without a cgroup: not memory (see PythonBootstrap)
    if (language == Language.PYTHON) {
      host.fontCache().addTo(dir.resolve("rootfs"));
      addressSpace = hostLimits ? 0 : settings.memoryBytes();
      String bootstrap =
          ahead
              ? WarmLauncher.python(!hostLimits, preload)
              : hostLimits ? PythonBootstrap.SOURCE : PythonBootstrap.ONE_ARENA_SOURCE;
      args.addAll(List.of("-I", "-c", bootstrap)); // isolated: no PYTHON* variables, no user site
    } else {
      // A heap bomb then ends with V8's clear "heap out of memory"; the cgroup (or the watchdog)
      // holds the rest (buffers, native memory).
      args.add("--max-old-space-size=" + settings.memoryMebibytes() * 3 / 4);
      if (ahead) {
        Files.writeString(code.resolve(WarmLauncher.NODE_FILE), WarmLauncher.node());
        args.addAll(List.of("--require", "/code/" + WarmLauncher.NODE_FILE));
      }
      if (!hostLimits) { // after the launcher: else its polling while waiting is program CPU
        String watchdog = nodeWatchdog(settings.memoryBytes(), settings.memoryNote());
        Files.writeString(code.resolve(WATCHDOG_FILE), watchdog);
        args.addAll(List.of("--require", "/code/" + WATCHDOG_FILE));
      }
    }
    args.add(codePath(language));
    String spec =
        OciSpec.json(args, language, addressSpace, settings.maxProcesses(), settings.hostEtc());
    Path file = dir.resolve("config.json");
    Files.writeString(
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PRIVATE_FILE)), spec);
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
   * Exclusive file access: a cold {@code import numpy, pandas} 0.75-0.83x the time; later host
   * changes are missed ({@link SandboxRuntimes#fingerprint}).
   */
  List<String> runscRun(Runsc runsc, String id) {
    String log = logFile().toString();
    return runsc.command(
        "--file-access-mounts=exclusive", "--log", log, "run", "--bundle", dir.toString(), id);
  }

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
   * Without host cgroups a worker reads Node's resident memory every 10 ms and kills it past the
   * allowance: under gVisor RLIMIT_AS stops Node starting, RLIMIT_DATA is not enforced.
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
