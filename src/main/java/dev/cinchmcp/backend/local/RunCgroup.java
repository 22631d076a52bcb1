package dev.cinchmcp.backend.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One run's cgroup(s) (v1: one per controller; v2: one), and whether a limit ended the run. */
record RunCgroup(Path memory, Path pids, Path cpu, boolean v2) {

  private static final Logger log = LoggerFactory.getLogger(RunCgroup.class);

  /** The shell's exit status when it could not join a cgroup. */
  static final int JOIN_FAILED = 125;

  /** Joins the cgroups named by the first {@code $1} arguments, then execs the rest. */
  static final String JOIN_THEN_EXEC =
      "n=$1; shift; while [ \"$n\" -gt 0 ]; do echo $$ > \"$1\" || exit "
          + JOIN_FAILED
          + "; shift; n=$((n - 1)); done; exec \"$@\"";

  /** For {@link #capCpu}: no cap of the run's own (the parent's still holds). */
  static final double ANY_CPU = 0;

  static final long CPU_PERIOD_US = 100_000;

  static RunCgroup v2(Path dir) {
    return new RunCgroup(dir, dir, dir, true);
  }

  List<Path> dirs() {
    return v2 ? List.of(memory) : List.of(memory, pids, cpu);
  }

  List<Path> procsFiles() {
    return dirs().stream().map(dir -> dir.resolve("cgroup.procs")).toList();
  }

  void capCpu(double cpus) throws IOException {
    String quota = Long.toString(Math.max(1000, (long) (cpus * CPU_PERIOD_US))); // 1 ms at least
    if (v2) {
      write(cpu.resolve("cpu.max"), (cpus == ANY_CPU ? "max" : quota) + " " + CPU_PERIOD_US);
    } else {
      write(cpu.resolve("cpu.cfs_quota_us"), cpus == ANY_CPU ? "-1" : quota);
    }
  }

  boolean memoryExceeded() {
    return counter(memory.resolve(v2 ? "memory.events" : "memory.oom_control"), "oom_kill") > 0;
  }

  boolean processLimitHit() {
    return counter(pids.resolve("pids.events"), "max") > 0;
  }

  /** The most memory the whole sandbox used; -1 when the kernel does not say (v2: Linux 5.19+). */
  long peakMemory() {
    Path file = memory.resolve(v2 ? "memory.peak" : "memory.max_usage_in_bytes");
    try {
      return Long.parseLong(Files.readString(file).trim());
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
  }

  /** SIGKILL to every process. Loops, not lambdas, on a stop's path: each first use cost 1-4 ms. */
  void killAll() {
    Path kill = memory.resolve("cgroup.kill"); // Linux 5.14+: all at once, forks meanwhile too
    if (v2 && Files.exists(kill)) {
      try {
        write(kill, "1");
      } catch (IOException e) {
        // fall through to the one-by-one kill
      }
    }
    kill(pids.resolve("cgroup.procs"));
  }

  void remove() {
    if (v2) {
      killAll();
    }
    for (Path dir : dirs()) {
      killAndRemove(dir);
    }
  }

  List<String> wrap(List<String> command) {
    List<String> argv = new ArrayList<>(List.of("/bin/sh", "-c", JOIN_THEN_EXEC, "cinchmcp-join"));
    argv.add(Integer.toString(dirs().size()));
    procsFiles().forEach(file -> argv.add(file.toString()));
    argv.addAll(command);
    return argv;
  }

  static void write(Path file, String value) throws IOException {
    Files.writeString(file, value, StandardCharsets.US_ASCII);
  }

  private static void kill(Path procs) {
    try {
      for (String line : Files.readAllLines(procs, StandardCharsets.US_ASCII)) {
        Optional<ProcessHandle> process =
            line.isBlank() ? Optional.empty() : ProcessHandle.of(Long.parseLong(line.trim()));
        if (process.isPresent()) {
          process.get().destroyForcibly();
        }
      }
    } catch (IOException | NumberFormatException e) {
      // gone, or nothing left to kill
    }
  }

  /** Reads "name value" lines (memory.events, pids.events, memory.oom_control); 0 when absent. */
  static long counter(Path file, String name) {
    try {
      for (String line : Files.readAllLines(file, StandardCharsets.US_ASCII)) {
        String[] parts = line.trim().split("\\s+");
        if (parts.length == 2 && parts[0].equals(name)) {
          return Long.parseLong(parts[1]);
        }
      }
    } catch (IOException | NumberFormatException e) {
      return 0;
    }
    return 0;
  }

  /** Kills what is left in one cgroup and removes it, retrying (~1 s) while killed ones leave. */
  static void killAndRemove(Path dir) {
    boolean interrupted = false;
    try {
      for (int attempt = 0; attempt < 50; attempt++) {
        kill(dir.resolve("cgroup.procs"));
        try {
          Files.deleteIfExists(dir);
          return;
        } catch (IOException e) {
          try {
            Thread.sleep(20);
          } catch (InterruptedException e2) {
            interrupted = true;
          }
        }
      }
      log.warn("Could not remove cgroup {}: processes still in it", dir);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
