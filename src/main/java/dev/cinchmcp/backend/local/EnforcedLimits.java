package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.SandboxFacts;

/**
 * Which of the sandbox's limits hold on this machine, for the ready line, {@code --check} and the
 * tool's description. Wall clock, files, network and RLIMIT_NPROC hold everywhere; a memory cap
 * over the whole sandbox and the CPU share need host cgroups.
 *
 * @param hostCgroups where the cgroup limits come from ("cgroup v1"), or null without
 * @param withoutCgroupsReason why there are no host cgroups, and what to do; or null
 * @param allTogether the cap on all sandboxes together ({@link HostCgroups#capAll}), or null
 */
public record EnforcedLimits(
    long wallClockSeconds,
    long memoryMebibytes,
    int maxProcesses,
    double cpuShare,
    String hostCgroups,
    String withoutCgroupsReason,
    String allTogether) {

  static EnforcedLimits of(
      LocalSandboxSettings settings, CgroupDetection.Result cgroups, String allTogether) {
    return new EnforcedLimits(
        settings.wallClock().toSeconds(),
        settings.memoryMebibytes(),
        settings.maxProcesses(),
        settings.cpuShare(),
        cgroups.limits().map(HostCgroups::describe).orElse(null),
        cgroups.unavailableReason(),
        allTogether);
  }

  boolean hostCgroupsHold() {
    return hostCgroups != null;
  }

  /** For the tool's description. */
  public String describe() {
    if (hostCgroupsHold()) {
      return wallClockSeconds
          + " seconds, "
          + memoryMebibytes
          + " MB of memory, "
          + maxProcesses
          + " processes, "
          + cpu();
    }
    return wallClockSeconds
        + " seconds, "
        + memoryMebibytes
        + " MB of memory per process (more is refused, or the program is killed), "
        + maxProcesses
        + " processes; the CPU is not limited on this machine";
  }

  /** For the ready line and {@code --check}: what holds, what does not, and why. */
  public String summary() {
    if (hostCgroupsHold()) {
      return "limits held: "
          + wallClockSeconds
          + " s, "
          + memoryMebibytes
          + " MB, "
          + maxProcesses
          + " processes, "
          + cpu()
          + " ("
          + hostCgroups
          + (allTogether != null ? "; " + allTogether : "")
          + ")";
    }
    return "limits held: "
        + wallClockSeconds
        + " s, "
        + memoryMebibytes
        + " MB per process (inside gVisor: RLIMIT_AS for Python, a watchdog for Node), "
        + maxProcesses
        + " processes; NOT held: the CPU share and one memory cap over all of a program's"
        + " processes, because "
        + withoutCgroupsReason;
  }

  private String cpu() {
    return SandboxFacts.cpuShare(cpuShare);
  }
}
