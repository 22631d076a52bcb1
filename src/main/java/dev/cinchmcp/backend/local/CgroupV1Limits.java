package dev.cinchmcp.backend.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Predicate;

/**
 * cgroup v1 (the layout of these machines; needs root): one directory per run in each of the
 * memory, pids and cpu hierarchies, under a {@code cinchmcp} directory beneath the server's own
 * cgroup (so the server's own limits still apply on top). Measured cost: none visible (~0.17 s per
 * run with or without).
 */
final class CgroupV1Limits implements CgroupLimits {

  static final List<String> CONTROLLERS = List.of("memory", "pids", "cpu");

  /** controller name → the directory that holds this backend's per-run cgroups. */
  private final Map<String, Path> parents;

  CgroupV1Limits(Map<String, Path> parents) {
    this.parents = Map.copyOf(parents);
  }

  @Override
  public String describe() {
    return "cgroup v1";
  }

  @Override
  public RunCgroup create(String runId, long memoryBytes, int maxHostTasks, double cpuShare)
      throws IOException {
    List<Path> dirs = new ArrayList<>();
    for (String controller : CONTROLLERS) {
      Path dir = parents.get(controller).resolve(runId);
      Files.createDirectory(dir);
      dirs.add(dir);
    }
    CgroupV1Run cgroup = new CgroupV1Run(dirs.get(0), dirs.get(1), dirs.get(2));
    return CgroupLimits.limited(
        cgroup,
        () -> {
          CgroupLimits.write(
              cgroup.memory().resolve("memory.limit_in_bytes"), Long.toString(memoryBytes));
          // Without swap accounting this file is missing; memory.limit_in_bytes alone then holds.
          Path memsw = cgroup.memory().resolve("memory.memsw.limit_in_bytes");
          if (Files.exists(memsw)) {
            CgroupLimits.write(memsw, Long.toString(memoryBytes));
          }
          CgroupLimits.write(cgroup.pidsDir().resolve("pids.max"), Integer.toString(maxHostTasks));
          CgroupLimits.write(
              cgroup.cpu().resolve("cpu.cfs_period_us"), Long.toString(RunCgroup.CPU_PERIOD_US));
          cgroup.capCpu(cpuShare);
        });
  }

  @Override
  public void capAll(OptionalDouble cpus) throws IOException {
    Path cpu = parents.get("cpu");
    // Lifted first: cgroup v1 refuses a parent's period or quota that would leave it below a run's.
    CgroupLimits.write(cpu.resolve("cpu.cfs_quota_us"), "-1");
    if (cpus.isPresent()) {
      CgroupLimits.write(
          cpu.resolve("cpu.cfs_period_us"), Long.toString(AllSandboxesCpu.PERIOD_US));
      CgroupLimits.write(
          cpu.resolve("cpu.cfs_quota_us"),
          Long.toString(AllSandboxesCpu.quotaUs(cpus.getAsDouble())));
    }
  }

  @Override
  public void removeLeftovers(Predicate<String> isLeftover) {
    for (Path parent : parents.values()) {
      CgroupLimits.removeLeftovers(parent, isLeftover, CgroupLimits::killAndRemove);
    }
  }
}
