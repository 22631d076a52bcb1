package dev.cinchmcp.backend.local;

import java.nio.file.Path;
import java.util.List;

/** The three cgroup v1 directories (memory, pids, cpu) of one run. */
record CgroupV1Run(Path memory, Path pids, Path cpu) implements RunCgroup {

  @Override
  public List<Path> procsFiles() {
    return List.of(
        memory.resolve("cgroup.procs"), pids.resolve("cgroup.procs"), cpu.resolve("cgroup.procs"));
  }

  @Override
  public Path oomEvents() {
    return memory.resolve("memory.oom_control");
  }

  @Override
  public Path pidsDir() {
    return pids;
  }

  @Override
  public Path memoryPeak() {
    return memory.resolve("memory.max_usage_in_bytes");
  }

  @Override
  public void remove() {
    for (Path dir : List.of(memory, pids, cpu)) {
      CgroupLimits.killAndRemove(dir);
    }
  }
}
