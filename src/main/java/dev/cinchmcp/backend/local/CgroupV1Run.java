package dev.cinchmcp.backend.local;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The three cgroup v1 directories of one run, one per controller: memory, pids (the task limit's,
 * {@link RunCgroup#pidsDir}) and cpu.
 */
record CgroupV1Run(Path memory, Path pidsDir, Path cpu) implements RunCgroup {

  @Override
  public List<Path> procsFiles() {
    return List.of(
        memory.resolve("cgroup.procs"),
        pidsDir.resolve("cgroup.procs"),
        cpu.resolve("cgroup.procs"));
  }

  @Override
  public void capCpu(double cpus) throws IOException {
    CgroupLimits.write(
        cpu.resolve("cpu.cfs_quota_us"),
        cpus == ANY_CPU ? "-1" : Long.toString(RunCgroup.quotaUs(cpus)));
  }

  @Override
  public Path oomEvents() {
    return memory.resolve("memory.oom_control");
  }

  @Override
  public Path memoryPeak() {
    return memory.resolve("memory.max_usage_in_bytes");
  }

  @Override
  public void remove() {
    for (Path dir : List.of(memory, pidsDir, cpu)) {
      CgroupLimits.killAndRemove(dir);
    }
  }
}
