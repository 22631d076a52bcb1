package dev.cinchmcp.backend.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Finds which host cgroups this server may use for its sandboxes, and proves it: a {@code cinchmcp}
 * parent directory that merely exists (say, left by root) proves nothing, so the check makes a real
 * run cgroup, writes its limits, moves a process into it and removes it again. When that fails, the
 * reason names the cause and what to do.
 */
final class CgroupDetection {

  static final Path CGROUP_FS = Path.of("/sys/fs/cgroup");

  /** Limits to use, or why there are none. */
  record Result(Optional<CgroupLimits> limits, String unavailableReason) {
    static Result of(CgroupLimits limits) {
      return new Result(Optional.of(limits), null);
    }

    static Result unavailable(String reason) {
      return new Result(Optional.empty(), reason);
    }
  }

  private CgroupDetection() {}

  /** The real machine's cgroups, checked by making and joining one. */
  static Result detect() {
    Result found;
    try {
      found =
          find(
              CGROUP_FS,
              Files.readString(Path.of("/proc/self/cgroup"), StandardCharsets.UTF_8),
              StateDirectory.ownUid());
    } catch (IOException e) {
      return Result.unavailable("cannot read /proc/self/cgroup (" + e.getMessage() + ")");
    }
    return found.limits().map(CgroupDetection::proveByJoining).orElse(found);
  }

  /**
   * Chooses cgroup v1 when the memory, pids and cpu controllers are v1 hierarchies, else cgroup v2
   * when /sys/fs/cgroup is a v2 mount; makes the parent directories.
   *
   * @param procSelfCgroup the text of /proc/self/cgroup
   */
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
    if (v1.keySet().containsAll(CgroupV1Limits.CONTROLLERS)) {
      return v1(cgroupFs, v1, uid);
    }
    if (v2 != null && Files.exists(cgroupFs.resolve("cgroup.controllers"))) {
      return CgroupV2Limits.find(cgroupFs, v2, uid);
    }
    return Result.unavailable("no memory, pids and cpu cgroup controllers at " + cgroupFs);
  }

  private static Result v1(Path cgroupFs, Map<String, String> own, int uid) {
    Map<String, Path> parents = new LinkedHashMap<>();
    for (String controller : CgroupV1Limits.CONTROLLERS) {
      Path mount = cgroupFs.resolve(controller);
      if (!Files.isDirectory(mount)) {
        return Result.unavailable("no cgroup v1 " + controller + " controller mounted at " + mount);
      }
      Path parent =
          mount.resolve(own.get(controller).replaceFirst("^/+", "")).resolve(CgroupLimits.PARENT);
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
    return Result.of(new CgroupV1Limits(parents));
  }

  private static String rootNeeded(int uid, String path) {
    return "this machine has cgroup v1, which only root can divide (uid "
        + uid
        + " may not write "
        + path
        + "): run the server as root for the memory, process and CPU limits";
  }

  /** Makes a run cgroup with limits, runs {@code /bin/true} inside it, removes it. */
  private static Result proveByJoining(CgroupLimits limits) {
    String id = Housekeeping.PREFIX + ProcessHandle.current().pid() + "-cgroup-check";
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
          "cannot make a "
              + limits.describe()
              + " cgroup ("
              + e.getClass().getSimpleName()
              + ": "
              + e.getMessage()
              + ")");
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
