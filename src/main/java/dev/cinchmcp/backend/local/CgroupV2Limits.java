package dev.cinchmcp.backend.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Predicate;

/**
 * cgroup v2, where the system delegates a subtree to this user (systemd does for each user's {@code
 * user@UID.service}, with memory, pids and cpu enabled — the way rootless container engines set
 * limits) or the server runs as root.
 *
 * <p>The rules that shape it: a cgroup that holds processes cannot hand controllers to children (so
 * the run cgroups cannot live under the server's own cgroup, which holds the server), and a process
 * may be moved only by a user who can write the {@code cgroup.procs} of the common ancestor of
 * where it is and where it goes. So the parent is made beside the server's cgroup, under the
 * nearest ancestor this user owns that enables all three controllers: {@code
 * <ancestor>/cinchmcp/<run>}.
 */
final class CgroupV2Limits implements CgroupLimits {

  static final List<String> CONTROLLERS = List.of("memory", "pids", "cpu");

  private final Path parent;

  CgroupV2Limits(Path parent) {
    this.parent = parent;
  }

  Path parent() {
    return parent;
  }

  /**
   * Finds the delegated ancestor of {@code ownPath} (the "0::" line of /proc/self/cgroup) under
   * {@code mount} and makes the {@code cinchmcp} parent there, or says why it cannot.
   */
  static CgroupDetection.Result find(Path mount, String ownPath, int uid) {
    Path own = mount.resolve(ownPath.replaceFirst("^/+", ""));
    Path candidate = own.equals(mount) ? own : own.getParent();
    while (candidate != null && candidate.startsWith(mount)) {
      if (ownedBy(candidate, uid) && enables(candidate, CONTROLLERS)) {
        return make(candidate);
      }
      candidate = candidate.equals(mount) ? null : candidate.getParent();
    }
    return CgroupDetection.Result.unavailable(
        "cgroup v2 is not delegated to this user here (no cgroup above "
            + own
            + " is owned by uid "
            + uid
            + " with memory, pids and cpu enabled): start the server from a systemd user session"
            + " (for example systemd-run --user --scope -p Delegate=yes <command>), or as root");
  }

  private static CgroupDetection.Result make(Path ancestor) {
    Path parent = ancestor.resolve(PARENT);
    try {
      Files.createDirectories(parent);
      if (!enables(parent, CONTROLLERS)) {
        CgroupLimits.write(parent.resolve("cgroup.subtree_control"), "+memory +pids +cpu");
      }
      return CgroupDetection.Result.of(new CgroupV2Limits(parent));
    } catch (IOException e) {
      return CgroupDetection.Result.unavailable(
          "cannot set up cgroup v2 limits under "
              + ancestor
              + " ("
              + e.getClass().getSimpleName()
              + ": "
              + e.getMessage()
              + ")");
    }
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

  private static boolean enables(Path dir, List<String> controllers) {
    return read(dir.resolve("cgroup.subtree_control"))
        .map(text -> Arrays.asList(text.trim().split("\\s+")).containsAll(controllers))
        .orElse(false);
  }

  private static Optional<String> read(Path file) {
    try {
      return Optional.of(Files.readString(file));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  @Override
  public String describe() {
    return "cgroup v2 at " + parent;
  }

  @Override
  public RunCgroup create(String runId, long memoryBytes, int maxHostTasks, double cpuShare)
      throws IOException {
    Path dir = Files.createDirectory(parent.resolve(runId));
    CgroupV2Run run = new CgroupV2Run(dir);
    return CgroupLimits.limited(
        run,
        () -> {
          CgroupLimits.write(dir.resolve("memory.max"), Long.toString(memoryBytes));
          Path swap = dir.resolve("memory.swap.max");
          if (Files.exists(swap)) {
            CgroupLimits.write(swap, "0");
          }
          CgroupLimits.write(dir.resolve("pids.max"), Integer.toString(maxHostTasks));
          run.capCpu(cpuShare);
        });
  }

  @Override
  public void capAll(OptionalDouble cpus) throws IOException {
    String quota =
        cpus.isPresent() ? Long.toString(AllSandboxesCpu.quotaUs(cpus.getAsDouble())) : "max";
    CgroupLimits.write(parent.resolve("cpu.max"), quota + " " + AllSandboxesCpu.PERIOD_US);
  }

  @Override
  public void removeLeftovers(Predicate<String> isLeftover) {
    CgroupLimits.removeLeftovers(parent, isLeftover, run -> new CgroupV2Run(run).remove());
  }
}
