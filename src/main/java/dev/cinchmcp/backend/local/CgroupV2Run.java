package dev.cinchmcp.backend.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The one cgroup v2 directory of one run. */
record CgroupV2Run(Path dir) implements RunCgroup {

  @Override
  public List<Path> procsFiles() {
    return List.of(dir.resolve("cgroup.procs"));
  }

  @Override
  public void capCpu(double cpus) throws IOException {
    String quota = cpus == ANY_CPU ? "max" : Long.toString(RunCgroup.quotaUs(cpus));
    CgroupLimits.write(dir.resolve("cpu.max"), quota + " " + CPU_PERIOD_US);
  }

  @Override
  public Path oomEvents() {
    return dir.resolve("memory.events");
  }

  @Override
  public Path pidsDir() {
    return dir;
  }

  @Override
  public Path memoryPeak() {
    return dir.resolve("memory.peak"); // Linux 5.19+
  }

  @Override
  public void killAll() {
    // cgroup.kill (Linux 5.14+) kills every process at once, including ones forked meanwhile.
    Path kill = dir.resolve("cgroup.kill");
    if (Files.exists(kill)) {
      try {
        CgroupLimits.write(kill, "1");
      } catch (IOException e) {
        // fall through to the one-by-one kill
      }
    }
    RunCgroup.super.killAll();
  }

  @Override
  public void remove() {
    killAll();
    CgroupLimits.killAndRemove(dir);
  }
}
