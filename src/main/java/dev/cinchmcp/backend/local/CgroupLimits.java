package dev.cinchmcp.backend.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.LoggerFactory;

/**
 * Memory, process and CPU limits for whole sandboxes through host cgroups this backend makes
 * itself, one per run: {@link CgroupV1Limits} (root on a cgroup v1 host) or {@link CgroupV2Limits}
 * (a cgroup v2 subtree delegated to this user, as a systemd user session gives). {@link
 * CgroupDetection} decides which one this machine allows, by really making and joining one.
 *
 * <p>Why not runsc's own cgroup support ({@code linux.resources} without {@code --ignore-cgroups})?
 * Measured: it costs ~2 s per run. Here runsc runs with {@code --ignore-cgroups}, and a tiny shell
 * joins the run's cgroup and then execs runsc, so runsc, its gofer, the Sentry and every stub
 * process are in it from their first instruction (see {@link RunCgroup#wrap}).
 */
sealed interface CgroupLimits permits CgroupV1Limits, CgroupV2Limits {

  /** The directory (per controller, for v1) under which this backend makes its run cgroups. */
  String PARENT = "cinchmcp";

  /** Makes the cgroup(s) of one run and writes its limits. */
  RunCgroup create(String runId, long memoryBytes, int maxHostTasks, double cpuShare)
      throws IOException;

  /**
   * Removes the run cgroups whose name {@code isLeftover} says belongs to a server that is gone.
   */
  void removeLeftovers(Predicate<String> isLeftover);

  /** Where the limits come from, for the ready line, e.g. "cgroup v1". */
  String describe();

  /**
   * Holds all run cgroups under the parent together to {@code cpus} CPUs ({@link AllSandboxesCpu}),
   * or lets them use any (empty). Servers that share the parent write the same value.
   */
  void capAll(OptionalDouble cpus) throws IOException;

  /** Writes the limits of a run's new cgroup(s). */
  interface LimitWrites {
    void write() throws IOException;
  }

  /**
   * {@code run}, once {@code limits} are written into it; when one cannot be, the cgroup is removed
   * and the failure thrown: a run never starts in a cgroup without all of its limits.
   */
  static RunCgroup limited(RunCgroup run, LimitWrites limits) throws IOException {
    try {
      limits.write();
    } catch (IOException e) {
      run.remove();
      throw e;
    }
    return run;
  }

  static void write(Path file, String value) throws IOException {
    Files.writeString(file, value, StandardCharsets.US_ASCII);
  }

  /** The pids listed in a cgroup.procs file; empty when it cannot be read. */
  static List<Long> pids(Path procs) {
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

  /** The number a cgroup file holds (memory.peak, memory.max_usage_in_bytes); -1 if unreadable. */
  static long number(Path file) {
    try {
      return Long.parseLong(Files.readString(file).trim());
    } catch (IOException | NumberFormatException e) {
      return -1;
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
   * Hands {@code remove} each run cgroup directory under {@code parent} that {@code isLeftover}
   * names; a parent that cannot be listed is only logged (the next start tries again).
   */
  static void removeLeftovers(Path parent, Predicate<String> isLeftover, Consumer<Path> remove) {
    try (DirectoryStream<Path> runs = Files.newDirectoryStream(parent)) {
      for (Path run : runs) {
        if (Files.isDirectory(run) && isLeftover.test(run.getFileName().toString())) {
          remove.accept(run);
        }
      }
    } catch (IOException e) {
      LoggerFactory.getLogger(CgroupLimits.class)
          .warn("Could not list {}: {}", parent, e.toString());
    }
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
      LoggerFactory.getLogger(CgroupLimits.class)
          .warn("Could not remove cgroup {}: processes still in it", dir);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
