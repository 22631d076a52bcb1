package dev.cinchmcp.backend.local;

import java.nio.file.Path;

/**
 * What one sandbox is on the host: its run id (also runsc's container id and its cgroup's name),
 * its bundle, the process that runs runsc, and its cgroup. A waiting sandbox hands them to the run
 * that takes it, which then owns them and removes them.
 *
 * @param process null when it was never started
 * @param cgroup null without host cgroups, or when it was never made
 */
record SandboxParts(String id, Path bundle, Process process, RunCgroup cgroup) {}
