package dev.cinchmcp.backend.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cgroups of one run (one directory per controller), made by {@link CgroupLimits#create}. Also
 * the place that learns afterwards whether a limit was what ended the run.
 */
record RunCgroup(Path memory, Path pids, Path cpu) {

  private static final Logger log = LoggerFactory.getLogger(RunCgroup.class);

  /**
   * Joins the three cgroups, then execs the rest of argv. If joining fails, runsc is never started
   * outside its limits: the script exits {@value #JOIN_FAILED} without a runsc log.
   */
  private static final String JOIN_THEN_EXEC =
      "for procs in \"$1\" \"$2\" \"$3\"; do echo $$ > \"$procs\" || exit "
          + 125
          + "; done; shift 3; exec \"$@\"";

  static final int JOIN_FAILED = 125;

  /** The argv that runs {@code command} inside these cgroups. */
  List<String> wrap(List<String> command) {
    List<String> argv = new ArrayList<>(List.of("/bin/sh", "-c", JOIN_THEN_EXEC, "cinchmcp-join"));
    argv.add(memory.resolve("cgroup.procs").toString());
    argv.add(pids.resolve("cgroup.procs").toString());
    argv.add(cpu.resolve("cgroup.procs").toString());
    argv.addAll(command);
    return argv;
  }

  /** Whether the kernel's OOM killer killed something in the sandbox (the memory limit was hit). */
  boolean memoryExceeded() {
    return counter(memory.resolve("memory.oom_control"), "oom_kill") > 0;
  }

  /**
   * Whether the host task limit refused a new process or thread (gVisor then stops the sandbox).
   */
  boolean processLimitHit() {
    return counter(pids.resolve("pids.events"), "max") > 0;
  }

  /** The most memory the whole sandbox used, in bytes, or -1 when unknown. */
  long peakMemory() {
    try {
      return Long.parseLong(Files.readString(memory.resolve("memory.max_usage_in_bytes")).trim());
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
  }

  private static long counter(Path file, String name) {
    try {
      for (String line : Files.readAllLines(file, StandardCharsets.US_ASCII)) {
        String[] parts = line.trim().split("\\s+");
        if (parts.length == 2 && parts[0].equals(name)) {
          return Long.parseLong(parts[1]);
        }
      }
    } catch (IOException | NumberFormatException e) {
      log.debug("Could not read {}: {}", file, e.toString());
    }
    return 0;
  }

  /** Sends SIGKILL to every process in the run's cgroup. */
  void killAll() {
    try {
      for (String pid :
          Files.readAllLines(pids.resolve("cgroup.procs"), StandardCharsets.US_ASCII)) {
        if (!pid.isBlank()) {
          ProcessHandle.of(Long.parseLong(pid.trim())).ifPresent(ProcessHandle::destroyForcibly);
        }
      }
    } catch (IOException | NumberFormatException e) {
      log.debug("Could not kill the processes of {}: {}", pids, e.toString());
    }
  }

  /** Kills whatever is still in the cgroups and removes them. */
  void remove() {
    for (Path dir : List.of(memory, pids, cpu)) {
      killAndRemove(dir);
    }
  }

  /**
   * Kills every process left in one cgroup directory, then removes it. A cgroup can only be removed
   * once empty, and a killed process takes a moment to leave, hence the short retry.
   */
  static void killAndRemove(Path dir) {
    for (int attempt = 0; attempt < 50; attempt++) {
      try {
        for (String pid :
            Files.readAllLines(dir.resolve("cgroup.procs"), StandardCharsets.US_ASCII)) {
          if (!pid.isBlank()) {
            ProcessHandle.of(Long.parseLong(pid.trim())).ifPresent(ProcessHandle::destroyForcibly);
          }
        }
        Files.deleteIfExists(dir);
        return;
      } catch (java.nio.file.NoSuchFileException e) {
        return;
      } catch (IOException | NumberFormatException e) {
        sleepQuietly(20);
      }
    }
    log.warn("Could not remove cgroup {}: processes still in it", dir);
  }

  private static void sleepQuietly(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
