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

/**
 * The cgroup(s) of one run, made by {@link HostCgroups#create}: with cgroup v1 one directory in
 * each of the memory, pids and cpu hierarchies, with cgroup v2 one directory for all three (then
 * {@code memory}, {@code pids} and {@code cpu} are the same). Also the place that learns afterwards
 * whether a limit was what ended the run.
 *
 * @param pids the directory of the run's task limit: its pids.events and the run's processes
 * @param v2 whether these are cgroup v2 directories (the file names and formats differ)
 */
record RunCgroup(Path memory, Path pids, Path cpu, boolean v2) {

  private static final Logger log = LoggerFactory.getLogger(RunCgroup.class);

  /** The shell's exit status when it could not join a cgroup (runsc is then never started). */
  static final int JOIN_FAILED = 125;

  /**
   * Joins the cgroups given as the first {@code $1} arguments, then execs the rest of argv. If
   * joining fails, runsc is never started outside its limits: the script exits {@value
   * #JOIN_FAILED} without a runsc log.
   */
  static final String JOIN_THEN_EXEC =
      "n=$1; shift; while [ \"$n\" -gt 0 ]; do echo $$ > \"$1\" || exit "
          + JOIN_FAILED
          + "; shift; n=$((n - 1)); done; exec \"$@\"";

  /**
   * For {@link #capCpu}: no cap of the run's own (the parent's cap on all sandboxes still holds).
   */
  static final double ANY_CPU = 0;

  /** The period of a run's CPU cap, in microseconds. */
  static final long CPU_PERIOD_US = 100_000;

  /** The one directory of a cgroup v2 run. */
  static RunCgroup v2(Path dir) {
    return new RunCgroup(dir, dir, dir, true);
  }

  /** Its directories, each once. */
  List<Path> dirs() {
    return v2 ? List.of(memory) : List.of(memory, pids, cpu);
  }

  /** The cgroup.procs files a process must be written to, to be inside this run's limits. */
  List<Path> procsFiles() {
    return dirs().stream().map(dir -> dir.resolve("cgroup.procs")).toList();
  }

  /**
   * Holds the run to {@code cpus} CPUs from now on, or lifts its own cap ({@link #ANY_CPU}): a data
   * sandbox imports its modules with what the machine spares and gets its program's cap at
   * hand-over.
   */
  void capCpu(double cpus) throws IOException {
    String quota = Long.toString(Math.max(1000, (long) (cpus * CPU_PERIOD_US))); // 1 ms at least
    if (v2) {
      write(cpu.resolve("cpu.max"), (cpus == ANY_CPU ? "max" : quota) + " " + CPU_PERIOD_US);
    } else {
      write(cpu.resolve("cpu.cfs_quota_us"), cpus == ANY_CPU ? "-1" : quota);
    }
  }

  /** Whether the kernel's OOM killer killed something in the sandbox (the memory limit was hit). */
  boolean memoryExceeded() {
    return counter(memory.resolve(v2 ? "memory.events" : "memory.oom_control"), "oom_kill") > 0;
  }

  /** Whether the host task limit refused a new process or thread (gVisor then stops). */
  boolean processLimitHit() {
    return counter(pids.resolve("pids.events"), "max") > 0;
  }

  /** The most memory the whole sandbox used, in bytes, or -1 when the kernel does not say. */
  long peakMemory() {
    // memory.peak: Linux 5.19+
    Path file = memory.resolve(v2 ? "memory.peak" : "memory.max_usage_in_bytes");
    try {
      return Long.parseLong(Files.readString(file).trim());
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
  }

  /**
   * Sends SIGKILL to every process in the run's cgroup(s). Loops, not lambdas, here and on the rest
   * of a stop's path: it runs cold, and each lambda's first use cost 1-4 ms here.
   */
  void killAll() {
    // cgroup.kill (Linux 5.14+) kills every process at once, including ones forked meanwhile.
    Path kill = memory.resolve("cgroup.kill");
    if (v2 && Files.exists(kill)) {
      try {
        write(kill, "1");
      } catch (IOException e) {
        // fall through to the one-by-one kill
      }
    }
    for (long pid : pids(pids.resolve("cgroup.procs"))) {
      Optional<ProcessHandle> process = ProcessHandle.of(pid);
      if (process.isPresent()) {
        process.get().destroyForcibly();
      }
    }
  }

  /** Kills whatever is still in the cgroup(s) and removes them. */
  void remove() {
    if (v2) {
      killAll();
    }
    for (Path dir : dirs()) {
      killAndRemove(dir);
    }
  }

  /** The argv that runs {@code command} inside this run's cgroups. */
  List<String> wrap(List<String> command) {
    List<String> argv = new ArrayList<>(List.of("/bin/sh", "-c", JOIN_THEN_EXEC, "cinchmcp-join"));
    argv.add(Integer.toString(procsFiles().size()));
    procsFiles().forEach(file -> argv.add(file.toString()));
    argv.addAll(command);
    return argv;
  }

  static void write(Path file, String value) throws IOException {
    Files.writeString(file, value, StandardCharsets.US_ASCII);
  }

  /** The pids listed in a cgroup.procs file; empty when it cannot be read. */
  private static List<Long> pids(Path procs) {
    try {
      List<Long> pids = new ArrayList<>();
      for (String line : Files.readAllLines(procs, StandardCharsets.US_ASCII)) {
        if (!line.isBlank()) {
          pids.add(Long.parseLong(line.trim()));
        }
      }
      return pids;
    } catch (IOException | NumberFormatException e) {
      return List.of();
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

  /**
   * Kills every process left in one cgroup directory, then removes it. A cgroup can only be removed
   * once empty, and a killed process takes a moment to leave, hence the short retry.
   */
  static void killAndRemove(Path dir) {
    // An interrupt (the runner closing while a run cleans up) must not leave the cgroup behind:
    // the retries are bounded anyway (~1 s), and the interrupt is kept for the caller.
    boolean interrupted = false;
    try {
      for (int attempt = 0; attempt < 50; attempt++) {
        pids(dir.resolve("cgroup.procs"))
            .forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
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
