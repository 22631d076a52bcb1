package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.SandboxFacts;

/**
 * Which limits hold here (a memory cap over the whole sandbox and the CPU share need host cgroups).
 *
 * @param hostCgroups where the cgroup limits come from ("cgroup v1"), or null without
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
      LocalSandboxSettings settings, HostCgroups.Result cgroups, String allTogether) {
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

  public String describe() {
    String start = wallClockSeconds + " seconds, " + memoryMebibytes + " MB of memory";
    if (hostCgroupsHold()) {
      return start + ", " + maxProcesses + " processes, " + SandboxFacts.cpuShare(cpuShare);
    }
    String perProcess = " per process (more is refused, or the program is killed), ";
    return start + perProcess + maxProcesses + " processes; the CPU is not limited on this machine";
  }

  /** For the ready line and {@code --check}: what holds, what does not, and why. */
  public String summary() {
    String held = "limits held: " + wallClockSeconds + " s, " + memoryMebibytes + " MB";
    if (hostCgroupsHold()) {
      String how = " (" + hostCgroups + (allTogether != null ? "; " + allTogether : "") + ")";
      return held + ", " + maxProcesses + " processes, " + SandboxFacts.cpuShare(cpuShare) + how;
    }
    String inside = " per process (inside gVisor: RLIMIT_AS for Python, a watchdog for Node), ";
    String notHeld = "NOT held: the CPU share and one memory cap over all of a program's processes";
    String tail = maxProcesses + " processes; " + notHeld + ", because ";
    return held + inside + tail + withoutCgroupsReason;
  }
}
