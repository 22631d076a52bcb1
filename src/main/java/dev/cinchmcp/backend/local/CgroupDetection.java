package dev.cinchmcp.backend.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Finds which host cgroups this server may use, and proves it by making a real run cgroup, writing
 * its limits and moving a process into it (a {@code cinchmcp} parent left by root proves nothing).
 * When that fails, the reason names the cause and what to do.
 */
final class CgroupDetection {

  static final Path CGROUP_FS = Path.of("/sys/fs/cgroup");

  /** Limits to use, or why there are none. */
  record Result(Optional<HostCgroups> limits, String unavailableReason) {
    static Result of(HostCgroups limits) {
      return new Result(Optional.of(limits), null);
    }

    static Result unavailable(String reason) {
      return new Result(Optional.empty(), reason);
    }
  }

  private CgroupDetection() {}

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
    if (v1.keySet().containsAll(HostCgroups.CONTROLLERS)) {
      return v1(cgroupFs, v1, uid);
    }
    if (v2 != null && Files.exists(cgroupFs.resolve("cgroup.controllers"))) {
      return v2(cgroupFs, v2, uid);
    }
    return Result.unavailable("no memory, pids and cpu cgroup controllers at " + cgroupFs);
  }

  private static Result v1(Path cgroupFs, Map<String, String> own, int uid) {
    Map<String, Path> parents = new LinkedHashMap<>();
    for (String controller : HostCgroups.CONTROLLERS) {
      Path mount = cgroupFs.resolve(controller);
      if (!Files.isDirectory(mount)) {
        return Result.unavailable("no cgroup v1 " + controller + " controller mounted at " + mount);
      }
      Path parent =
          mount.resolve(own.get(controller).replaceFirst("^/+", "")).resolve(HostCgroups.PARENT);
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
    return Result.of(HostCgroups.v1(parents));
  }

  /**
   * cgroup v2: a cgroup that holds processes cannot hand controllers to children, and a process may
   * be moved only by who can write the common ancestor's {@code cgroup.procs}: so the parent is
   * made beside the server's cgroup, under the nearest ancestor this user owns that enables all
   * three.
   */
  private static Result v2(Path mount, String ownPath, int uid) {
    Path own = mount.resolve(ownPath.replaceFirst("^/+", ""));
    Path candidate = own.equals(mount) ? own : own.getParent();
    while (candidate != null && candidate.startsWith(mount)) {
      if (ownedBy(candidate, uid) && enablesAll(candidate)) {
        Path parent = candidate.resolve(HostCgroups.PARENT);
        try {
          Files.createDirectories(parent);
          if (!enablesAll(parent)) {
            RunCgroup.write(parent.resolve("cgroup.subtree_control"), "+memory +pids +cpu");
          }
          return Result.of(HostCgroups.v2(parent));
        } catch (IOException e) {
          return Result.unavailable(
              "cannot set up cgroup v2 limits under " + candidate + " (" + describe(e) + ")");
        }
      }
      candidate = candidate.equals(mount) ? null : candidate.getParent();
    }
    String why =
        "no cgroup above " + own + " is owned by uid " + uid + " with memory, pids and cpu";
    return Result.unavailable(
        "cgroup v2 is not delegated to this user here ("
            + why
            + " enabled): start the server from"
            + " a systemd user session (for example systemd-run --user --scope -p Delegate=yes"
            + " <command>), or as root");
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
      return Arrays.asList(enabled.trim().split("\\s+")).containsAll(HostCgroups.CONTROLLERS);
    } catch (IOException e) {
      return false;
    }
  }

  private static String describe(IOException e) {
    return e.getClass().getSimpleName() + ": " + e.getMessage();
  }

  private static String rootNeeded(int uid, String path) {
    String who = "(uid " + uid + " may not write " + path + ")";
    return "this machine has cgroup v1, which only root can divide "
        + who
        + ": run the server as root for the memory, process and CPU limits";
  }

  private static Result proveByJoining(HostCgroups limits) {
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
