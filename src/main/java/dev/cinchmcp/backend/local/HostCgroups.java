package dev.cinchmcp.backend.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Memory, process and CPU limits for whole sandboxes: a host cgroup per run ({@link RunCgroup})
 * under a {@code cinchmcp} parent (v1: root only; v2: where delegated to this user), joined by a
 * shell before runsc starts (runsc's own cgroups cost ~2 s per run). {@link #detect} proves them.
 */
final class HostCgroups {

  private static final Logger log = LoggerFactory.getLogger(HostCgroups.class);

  static final String PARENT = "cinchmcp";

  static final List<String> CONTROLLERS = List.of("memory", "pids", "cpu");

  /** The period (µs) of the cap on all sandboxes: short, so the reserve is there at once. */
  static final long ALL_PERIOD_US = 5_000;

  private final RunCgroup parents; // the directories of the run cgroups

  private HostCgroups(RunCgroup parents) {
    this.parents = parents;
  }

  Path parent() {
    return parents.memory();
  }

  String describe() {
    return parents.v2() ? "cgroup v2 at " + parent() : "cgroup v1";
  }

  /** Makes the cgroup(s) of one run with all of its limits, or removes them and throws. */
  RunCgroup create(String runId, long memoryBytes, int maxHostTasks, double cpuShare)
      throws IOException {
    boolean v2 = parents.v2();
    RunCgroup run =
        v2
            ? RunCgroup.v2(Files.createDirectory(parent().resolve(runId)))
            : new RunCgroup(
                Files.createDirectory(parents.memory().resolve(runId)),
                Files.createDirectory(parents.pids().resolve(runId)),
                Files.createDirectory(parents.cpu().resolve(runId)),
                false);
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

  /** All runs together to {@code cpus} CPUs, or any (empty). */
  void capAll(OptionalDouble cpus) throws IOException {
    Path cpu = parents.cpu();
    String quota = cpus.isPresent() ? Long.toString(allQuotaUs(cpus.getAsDouble())) : null;
    if (parents.v2()) {
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

  static String describeCap(double cpus, int cores) {
    return "all sandboxes together at most "
        + (cpus == Math.rint(cpus) ? Long.toString((long) cpus) : Double.toString(cpus))
        + " of "
        + cores
        + (cores == 1 ? " core" : " cores");
  }

  void removeLeftovers(Predicate<String> isLeftover) {
    for (Path parent : parents.dirs()) {
      try (DirectoryStream<Path> runs = Files.newDirectoryStream(parent)) {
        for (Path run : runs) {
          if (Files.isDirectory(run) && isLeftover.test(run.getFileName().toString())) {
            if (parents.v2()) {
              RunCgroup.v2(run).killAll();
            }
            RunCgroup.killAndRemove(run);
          }
        }
      } catch (IOException e) {
        log.warn("Could not list {}: {}", parent, e.toString());
      }
    }
  }

  /** Limits to use, or why there are none. */
  record Result(Optional<HostCgroups> limits, String unavailableReason) {
    static Result of(HostCgroups limits) {
      return new Result(Optional.of(limits), null);
    }

    static Result unavailable(String reason) {
      return new Result(Optional.empty(), reason);
    }
  }

  static Result detect() {
    Result found;
    try {
      found =
          find(
              Path.of("/sys/fs/cgroup"),
              Files.readString(Path.of("/proc/self/cgroup"), StandardCharsets.UTF_8),
              StateDirectory.ownUid());
    } catch (IOException e) {
      return Result.unavailable("cannot read /proc/self/cgroup (" + e.getMessage() + ")");
    }
    return found.limits().map(HostCgroups::proveByJoining).orElse(found);
  }

  /** cgroup v1 when memory, pids and cpu are v1 hierarchies, else v2 when mounted as v2. */
  static Result find(Path cgroupFs, String procSelfCgroup, int uid) {
    Map<String, String> v1 = new LinkedHashMap<>();
    String v2 = null;
    for (String line : procSelfCgroup.split("\n")) {
      String[] parts = line.split(":", 3);
      if (parts.length != 3) {
        continue;
      }
      if (parts[1].isEmpty()) {
        v2 = parts[2];
      }
      for (String controller : parts[1].split(",")) {
        v1.put(controller, parts[2]);
      }
    }
    if (v1.keySet().containsAll(CONTROLLERS)) {
      return findV1(cgroupFs, v1, uid);
    }
    if (v2 != null && Files.exists(cgroupFs.resolve("cgroup.controllers"))) {
      return findV2(cgroupFs, v2, uid);
    }
    return Result.unavailable("no memory, pids and cpu cgroup controllers at " + cgroupFs);
  }

  private static Result findV1(Path cgroupFs, Map<String, String> own, int uid) {
    Map<String, Path> parents = new HashMap<>();
    for (String controller : CONTROLLERS) {
      Path mount = cgroupFs.resolve(controller);
      if (!Files.isDirectory(mount)) {
        return Result.unavailable("no cgroup v1 " + controller + " controller mounted at " + mount);
      }
      Path parent = mount.resolve(own.get(controller).replaceFirst("^/+", "")).resolve(PARENT);
      try {
        Files.createDirectories(parent);
      } catch (AccessDeniedException e) {
        return Result.unavailable(rootNeeded(uid, e.getFile()));
      } catch (IOException e) {
        return Result.unavailable(
            "cannot create " + parent + " (" + e.getClass().getSimpleName() + ")");
      }
      parents.put(controller, parent);
    }
    return Result.of(
        new HostCgroups(
            new RunCgroup(parents.get("memory"), parents.get("pids"), parents.get("cpu"), false)));
  }

  /**
   * A v2 cgroup holding processes cannot hand controllers to children, and only who can write the
   * common ancestor's {@code cgroup.procs} moves a process: so the parent goes under the nearest
   * ancestor this user owns that enables all three.
   */
  private static Result findV2(Path mount, String ownPath, int uid) {
    Path own = mount.resolve(ownPath.replaceFirst("^/+", ""));
    Path candidate = own.equals(mount) ? own : own.getParent();
    while (candidate != null && candidate.startsWith(mount)) {
      if (ownedBy(candidate, uid) && enablesAll(candidate)) {
        Path parent = candidate.resolve(PARENT);
        try {
          Files.createDirectories(parent);
          if (!enablesAll(parent)) {
            RunCgroup.write(parent.resolve("cgroup.subtree_control"), "+memory +pids +cpu");
          }
          return Result.of(new HostCgroups(RunCgroup.v2(parent)));
        } catch (IOException e) {
          return Result.unavailable(
              "cannot set up cgroup v2 limits under " + candidate + " (" + describe(e) + ")");
        }
      }
      candidate = candidate.equals(mount) ? null : candidate.getParent();
    }
    return Result.unavailable(
        "cgroup v2 is not delegated to this user here (no cgroup above "
            + own
            + " is owned by uid "
            + uid
            + " with memory, pids and cpu enabled): start the server from a systemd user session"
            + " (for example systemd-run --user --scope -p Delegate=yes <command>), or as root");
  }

  private static boolean ownedBy(Path dir, int uid) {
    try {
      return Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)
          && (Integer) Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS) == uid
          && (Integer)
                  Files.getAttribute(
                      dir.resolve("cgroup.procs"), "unix:uid", LinkOption.NOFOLLOW_LINKS)
              == uid;
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }

  private static boolean enablesAll(Path dir) {
    try {
      String enabled = Files.readString(dir.resolve("cgroup.subtree_control"));
      return Arrays.asList(enabled.trim().split("\\s+")).containsAll(CONTROLLERS);
    } catch (IOException e) {
      return false;
    }
  }

  private static String describe(IOException e) {
    return e.getClass().getSimpleName() + ": " + e.getMessage();
  }

  private static String rootNeeded(int uid, String path) {
    return "this machine has cgroup v1, which only root can divide (uid "
        + uid
        + " may not write "
        + path
        + "): run the server as root for the memory, process and CPU limits";
  }

  private static Result proveByJoining(HostCgroups limits) {
    String id = StateDirectory.PREFIX + ProcessHandle.current().pid() + "-cgroup-check";
    RunCgroup probe = null;
    try {
      probe = limits.create(id, 64L << 20, 16, 0.5);
      Process process =
          new ProcessBuilder(probe.wrap(List.of("/bin/true")))
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return Result.unavailable("joining a test cgroup did not finish within 5 s");
      }
      if (process.exitValue() != 0) {
        return Result.unavailable(
            "a process cannot be moved into this server's "
                + limits.describe()
                + " cgroups (the common parent's cgroup.procs is not writable by this user):"
                + " run the server as root, or from a systemd user session");
      }
      return Result.of(limits);
    } catch (AccessDeniedException e) {
      return Result.unavailable(rootNeeded(StateDirectory.ownUid(), e.getFile()));
    } catch (IOException e) {
      return Result.unavailable(
          "cannot make a " + limits.describe() + " cgroup (" + describe(e) + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Result.unavailable("interrupted while checking cgroups");
    } finally {
      if (probe != null) {
        probe.remove();
      }
    }
  }
}
