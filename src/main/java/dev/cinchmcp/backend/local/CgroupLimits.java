package dev.cinchmcp.backend.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Memory, process and CPU limits for whole sandboxes, through cgroup v1 directories this backend
 * makes itself: one per run, under a {@code cinchmcp} directory beneath the server's own cgroup (so
 * the server's own limits still apply on top).
 *
 * <p>Why not runsc's own cgroup support ({@code linux.resources} without {@code --ignore-cgroups})?
 * Measured: it costs ~2 s per run. Here runsc runs with {@code --ignore-cgroups}, and a tiny shell
 * joins the run's cgroup and then execs runsc, so runsc, its gofer, the Sentry and every stub
 * process are in it from their first instruction. Measured cost: none visible (~0.17 s per run with
 * or without); limits measured to hold: a 400 MB Python or Node allocation is killed, 150 MB
 * passes.
 *
 * <p>Only cgroup v1 (the layout of these machines) is supported. Under cgroup v2 a process cannot
 * make child cgroups of its own cgroup with controllers unless the cgroup was delegated to it; the
 * runner then warns and runs with the in-sandbox limits only (RLIMIT_AS for Python, Node's heap
 * limit, RLIMIT_NPROC) — see {@link #available()}.
 */
final class CgroupLimits {

  private static final Logger log = LoggerFactory.getLogger(CgroupLimits.class);
  private static final Path CGROUP_FS = Path.of("/sys/fs/cgroup");
  private static final List<String> CONTROLLERS = List.of("memory", "pids", "cpu");
  static final String PARENT = "cinchmcp";
  private static final long CPU_PERIOD_US = 100_000;

  /** controller name → the directory that holds this backend's per-run cgroups. */
  private final Map<String, Path> parents;

  private final String unavailableReason;

  private CgroupLimits(Map<String, Path> parents, String unavailableReason) {
    this.parents = parents;
    this.unavailableReason = unavailableReason;
  }

  /** Finds the server's own cgroups and makes the {@code cinchmcp} directory in each. */
  static CgroupLimits detect() {
    Map<String, Path> parents = new LinkedHashMap<>();
    try {
      Map<String, String> own = ownCgroups();
      for (String controller : CONTROLLERS) {
        String ownPath = own.get(controller);
        Path mount = CGROUP_FS.resolve(controller);
        if (ownPath == null || !Files.isDirectory(mount)) {
          return new CgroupLimits(
              Map.of(), "no cgroup v1 " + controller + " controller mounted at " + mount);
        }
        Path parent = mount.resolve(ownPath.substring(1)).resolve(PARENT);
        Files.createDirectories(parent);
        parents.put(controller, parent);
      }
      return new CgroupLimits(parents, null);
    } catch (IOException | RuntimeException e) {
      return new CgroupLimits(
          Map.of(),
          "cannot create cgroups (" + e.getClass().getSimpleName() + ": " + e.getMessage() + ")");
    }
  }

  /** Parses /proc/self/cgroup: "4:memory:/a/b" and "1:cpu,cpuacct:/x" lines. */
  private static Map<String, String> ownCgroups() throws IOException {
    Map<String, String> own = new LinkedHashMap<>();
    for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"), StandardCharsets.UTF_8)) {
      String[] parts = line.split(":", 3);
      if (parts.length == 3) {
        for (String controller : parts[1].split(",")) {
          own.put(controller, parts[2]);
        }
      }
    }
    return own;
  }

  boolean available() {
    return unavailableReason == null;
  }

  Optional<String> unavailableReason() {
    return Optional.ofNullable(unavailableReason);
  }

  /** Makes the cgroups of one run and writes its limits. */
  RunCgroup create(String runId, long memoryBytes, int maxHostTasks, double cpuShare)
      throws IOException {
    List<Path> dirs = new ArrayList<>();
    for (String controller : CONTROLLERS) {
      Path dir = parents.get(controller).resolve(runId);
      Files.createDirectories(dir);
      dirs.add(dir);
    }
    RunCgroup cgroup = new RunCgroup(dirs.get(0), dirs.get(1), dirs.get(2));
    try {
      write(cgroup.memory().resolve("memory.limit_in_bytes"), Long.toString(memoryBytes));
      // Without swap accounting this file is missing; memory.limit_in_bytes alone then holds.
      Path memsw = cgroup.memory().resolve("memory.memsw.limit_in_bytes");
      if (Files.exists(memsw)) {
        write(memsw, Long.toString(memoryBytes));
      }
      write(cgroup.pids().resolve("pids.max"), Integer.toString(maxHostTasks));
      write(cgroup.cpu().resolve("cpu.cfs_period_us"), Long.toString(CPU_PERIOD_US));
      write(
          cgroup.cpu().resolve("cpu.cfs_quota_us"),
          Long.toString(Math.max(1000, (long) (cpuShare * CPU_PERIOD_US))));
    } catch (IOException e) {
      cgroup.remove();
      throw e;
    }
    return cgroup;
  }

  /** Removes the cgroups of runs that {@code isLeftover} says are not ours any more. */
  void removeLeftovers(java.util.function.Predicate<String> isLeftover) {
    for (Path parent : parents.values()) {
      try (DirectoryStream<Path> runs = Files.newDirectoryStream(parent)) {
        for (Path run : runs) {
          if (Files.isDirectory(run) && isLeftover.test(run.getFileName().toString())) {
            RunCgroup.killAndRemove(run);
          }
        }
      } catch (IOException e) {
        log.warn("Could not list {}: {}", parent, e.toString());
      }
    }
  }

  static void write(Path file, String value) throws IOException {
    Files.writeString(file, value, StandardCharsets.US_ASCII);
  }
}
