package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.CpuReserve;
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
 * Memory, process and CPU limits for whole sandboxes through host cgroups this backend makes
 * itself, one per run ({@link RunCgroup}), under a {@code cinchmcp} parent. {@link CgroupDetection}
 * decides which layout this machine allows, by really making and joining one:
 *
 * <ul>
 *   <li>cgroup v1 (the layout of these machines; needs root): a parent in each of the memory, pids
 *       and cpu hierarchies, beneath the server's own cgroup (so the server's own limits still
 *       apply on top). Measured cost: none visible (~0.17 s per run with or without).
 *   <li>cgroup v2, where the system delegates a subtree to this user (systemd does for each user's
 *       {@code user@UID.service}) or the server runs as root: one parent for all three.
 * </ul>
 *
 * <p>Why not runsc's own cgroup support ({@code linux.resources} without {@code --ignore-cgroups})?
 * Measured: it costs ~2 s per run. Here runsc runs with {@code --ignore-cgroups}, and a tiny shell
 * joins the run's cgroup and then execs runsc, so runsc, its gofer, the Sentry and every stub
 * process are in it from their first instruction (see {@link RunCgroup#wrap}).
 *
 * <p>The parent also holds all sandboxes together off a reserve of the CPU ({@link CpuReserve},
 * {@link #capAll}). Its period is short, so that the reserve is there within milliseconds, not once
 * a 100 ms period's quota has run out. Unlike a lower priority, the cap does not make sandboxes
 * yield to the user's other programs.
 */
final class HostCgroups {

  private static final Logger log = LoggerFactory.getLogger(HostCgroups.class);

  /** The directory (per controller, for v1) under which this backend makes its run cgroups. */
  static final String PARENT = "cinchmcp";

  static final List<String> CONTROLLERS = List.of("memory", "pids", "cpu");

  /** The period of the cap on all sandboxes together, in microseconds. */
  static final long ALL_PERIOD_US = 5_000;

  /**
   * controller name → the directory that holds this backend's run cgroups (one for all with v2).
   */
  private final Map<String, Path> parents;

  private final boolean v2;

  private HostCgroups(Map<String, Path> parents, boolean v2) {
    this.parents = Map.copyOf(parents);
    this.v2 = v2;
  }

  /** cgroup v1: the parent in each controller's hierarchy. */
  static HostCgroups v1(Map<String, Path> parents) {
    return new HostCgroups(parents, false);
  }

  /** cgroup v2: one parent, with memory, pids and cpu enabled for its children. */
  static HostCgroups v2(Path parent) {
    return new HostCgroups(Map.of("memory", parent, "pids", parent, "cpu", parent), true);
  }

  /** Where the run cgroups are made (with v1, in the memory hierarchy). */
  Path parent() {
    return parents.get("memory");
  }

  /** Where the limits come from, for the ready line, e.g. "cgroup v1". */
  String describe() {
    return v2 ? "cgroup v2 at " + parent() : "cgroup v1";
  }

  /**
   * Makes the cgroup(s) of one run and writes its limits; when one cannot be written, the cgroup is
   * removed and the failure thrown: a run never starts in a cgroup without all of its limits.
   */
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

  /**
   * Holds all run cgroups under the parent together to {@code cpus} CPUs, or lets them use any
   * (empty). Servers that share the parent write the same value.
   */
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

  /** The quota per {@link #ALL_PERIOD_US} of {@code cpus}, in microseconds. */
  static long allQuotaUs(double cpus) {
    return Math.round(cpus * ALL_PERIOD_US);
  }

  /** "all sandboxes together at most 1.5 of 2 cores", for the ready line. */
  static String describeCap(double cpus, int cores) {
    return "all sandboxes together at most "
        + (cpus == Math.rint(cpus) ? Long.toString((long) cpus) : Double.toString(cpus))
        + " of "
        + cores
        + (cores == 1 ? " core" : " cores");
  }

  /**
   * Removes the run cgroups whose name {@code isLeftover} says belongs to a server that is gone; a
   * parent that cannot be listed is only logged (the next start tries again).
   */
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
