package dev.cinchmcp.backend.local;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Memory, process and CPU limits for whole sandboxes through host cgroups this backend makes, one
 * per run ({@link RunCgroup}) under a {@code cinchmcp} parent: with cgroup v1 (needs root) a parent
 * in each hierarchy beneath the server's own cgroup (no cost measured: ~0.17 s per run with or
 * without); with v2 one parent where a subtree is delegated to this user.
 *
 * <p>Not runsc's own cgroup support: measured, it costs ~2 s per run. runsc runs with {@code
 * --ignore-cgroups} and a tiny shell joins the run's cgroup first ({@link RunCgroup#wrap}), so
 * every process of the sandbox is in it from its first instruction.
 *
 * <p>The parent also holds all sandboxes off a reserve of the CPU ({@link #capAll}), with a short
 * period so the reserve is there within milliseconds.
 */
final class HostCgroups {

  private static final Logger log = LoggerFactory.getLogger(HostCgroups.class);

  static final String PARENT = "cinchmcp";

  static final List<String> CONTROLLERS = List.of("memory", "pids", "cpu");

  /** The period of the cap on all sandboxes together, in microseconds. */
  static final long ALL_PERIOD_US = 5_000;

  // controller -> the directory of the run cgroups (one for all with v2)
  private final Map<String, Path> parents;

  private final boolean v2;

  private HostCgroups(Map<String, Path> parents, boolean v2) {
    this.parents = Map.copyOf(parents);
    this.v2 = v2;
  }

  static HostCgroups v1(Map<String, Path> parents) {
    return new HostCgroups(parents, false);
  }

  static HostCgroups v2(Path parent) {
    return new HostCgroups(Map.of("memory", parent, "pids", parent, "cpu", parent), true);
  }

  Path parent() {
    return parents.get("memory");
  }

  String describe() {
    return v2 ? "cgroup v2 at " + parent() : "cgroup v1";
  }

  /** Makes the cgroup(s) of one run with all of its limits, or removes them and throws. */
  RunCgroup create(String runId, long memoryBytes, int maxHostTasks, double cpuShare)
      throws IOException {
    RunCgroup run =
        new RunCgroup(
            Files.createDirectory(parents.get("memory").resolve(runId)),
            v2
                ? parent().resolve(runId)
                : Files.createDirectory(parents.get("pids").resolve(runId)),
            v2 ? parent().resolve(runId) : Files.createDirectory(parents.get("cpu").resolve(runId)),
            v2);
    try {
      String memory = Long.toString(memoryBytes);
      if (v2) {
        RunCgroup.write(run.memory().resolve("memory.max"), memory);
        Path swap = run.memory().resolve("memory.swap.max");
        if (Files.exists(swap)) {
          RunCgroup.write(swap, "0");
        }
      } else {
        RunCgroup.write(run.memory().resolve("memory.limit_in_bytes"), memory);
        // Without swap accounting this file is missing; memory.limit_in_bytes alone then holds.
        Path memsw = run.memory().resolve("memory.memsw.limit_in_bytes");
        if (Files.exists(memsw)) {
          RunCgroup.write(memsw, memory);
        }
        RunCgroup.write(
            run.cpu().resolve("cpu.cfs_period_us"), Long.toString(RunCgroup.CPU_PERIOD_US));
      }
      RunCgroup.write(run.pids().resolve("pids.max"), Integer.toString(maxHostTasks));
      run.capCpu(cpuShare);
    } catch (IOException e) {
      run.remove();
      throw e;
    }
    return run;
  }

  /** All runs together to {@code cpus} CPUs, or any (empty); servers sharing it write the same. */
  void capAll(OptionalDouble cpus) throws IOException {
    Path cpu = parents.get("cpu");
    String quota = cpus.isPresent() ? Long.toString(allQuotaUs(cpus.getAsDouble())) : null;
    if (v2) {
      RunCgroup.write(
          cpu.resolve("cpu.max"), (quota == null ? "max" : quota) + " " + ALL_PERIOD_US);
      return;
    }
    // Lifted first: cgroup v1 refuses a parent's period or quota that would leave it below a run's.
    RunCgroup.write(cpu.resolve("cpu.cfs_quota_us"), "-1");
    if (quota != null) {
      RunCgroup.write(cpu.resolve("cpu.cfs_period_us"), Long.toString(ALL_PERIOD_US));
      RunCgroup.write(cpu.resolve("cpu.cfs_quota_us"), quota);
    }
  }

  static long allQuotaUs(double cpus) {
    return Math.round(cpus * ALL_PERIOD_US);
  }

  /** "all sandboxes together at most 1.5 of 2 cores". */
  static String describeCap(double cpus, int cores) {
    return "all sandboxes together at most "
        + (cpus == Math.rint(cpus) ? Long.toString((long) cpus) : Double.toString(cpus))
        + " of "
        + cores
        + (cores == 1 ? " core" : " cores");
  }

  /** Removes the run cgroups of servers that are gone. */
  void removeLeftovers(Predicate<String> isLeftover) {
    for (Path parent : v2 ? List.of(parent()) : parents.values()) {
      try (DirectoryStream<Path> runs = Files.newDirectoryStream(parent)) {
        for (Path run : runs) {
          if (Files.isDirectory(run) && isLeftover.test(run.getFileName().toString())) {
            if (v2) {
              RunCgroup.v2(run).remove();
            } else {
              RunCgroup.killAndRemove(run);
            }
          }
        }
      } catch (IOException e) {
        log.warn("Could not list {}: {}", parent, e.toString());
      }
    }
  }
}
