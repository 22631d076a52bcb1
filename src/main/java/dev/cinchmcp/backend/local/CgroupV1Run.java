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
  public boolean memoryExceeded() {
    return CgroupLimits.counter(memory.resolve("memory.oom_control"), "oom_kill") > 0;
  }

  @Override
  public boolean processLimitHit() {
    return CgroupLimits.counter(pids.resolve("pids.events"), "max") > 0;
  }

  @Override
  public long peakMemory() {
    return CgroupLimits.number(memory.resolve("memory.max_usage_in_bytes"));
  }

  @Override
  public void killAll() {
    CgroupLimits.pids(pids.resolve("cgroup.procs"))
        .forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
  }

  @Override
  public void remove() {
    for (Path dir : List.of(memory, pids, cpu)) {
      CgroupLimits.killAndRemove(dir);
    }
  }
}
