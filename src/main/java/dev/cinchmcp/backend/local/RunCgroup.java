package dev.cinchmcp.backend.local;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The cgroup(s) of one run, made by {@link CgroupLimits#create}; also the place that learns
 * afterwards whether a limit was what ended the run.
 */
sealed interface RunCgroup permits CgroupV1Run, CgroupV2Run {

  /** The shell's exit status when it could not join a cgroup (runsc is then never started). */
  int JOIN_FAILED = 125;

  /**
   * Joins the cgroups given as the first {@code $1} arguments, then execs the rest of argv. If
   * joining fails, runsc is never started outside its limits: the script exits {@value
   * #JOIN_FAILED} without a runsc log.
   */
  String JOIN_THEN_EXEC =
      "n=$1; shift; while [ \"$n\" -gt 0 ]; do echo $$ > \"$1\" || exit "
          + JOIN_FAILED
          + "; shift; n=$((n - 1)); done; exec \"$@\"";

  /**
   * For {@link #capCpu}: no cap of the run's own (the parent's cap on all sandboxes still holds).
   */
  double ANY_CPU = 0;

  /** The period of a run's CPU cap, in microseconds. */
  long CPU_PERIOD_US = 100_000;

  /**
   * Holds the run to {@code cpus} CPUs from now on, or lifts its own cap ({@link #ANY_CPU}): a data
   * sandbox imports its modules with what the machine spares and gets its program's cap at
   * hand-over.
   */
  void capCpu(double cpus) throws IOException;

  /** The quota per {@link #CPU_PERIOD_US} of {@code cpus}, in microseconds: 1 ms at least. */
  static long quotaUs(double cpus) {
    return Math.max(1000, (long) (cpus * CPU_PERIOD_US));
  }

  /** The cgroup.procs files a process must be written to, to be inside this run's limits. */
  List<Path> procsFiles();

  /** The file whose {@code oom_kill} counter says how often the kernel's OOM killer struck. */
  Path oomEvents();

  /** The directory of the run's task limit: its pids.events and the run's processes. */
  Path pidsDir();

  /** The file of the most memory the run used, in bytes. */
  Path memoryPeak();

  /** Whether the kernel's OOM killer killed something in the sandbox (the memory limit was hit). */
  default boolean memoryExceeded() {
    return CgroupLimits.counter(oomEvents(), "oom_kill") > 0;
  }

  /** Whether the host task limit refused a new process or thread (gVisor then stops). */
  default boolean processLimitHit() {
    return CgroupLimits.counter(pidsDir().resolve("pids.events"), "max") > 0;
  }

  /** The most memory the whole sandbox used, in bytes, or -1 when the kernel does not say. */
  default long peakMemory() {
    return CgroupLimits.number(memoryPeak());
  }

  /**
   * Sends SIGKILL to every process in the run's cgroup(s). Loops, not lambdas, here and on the rest
   * of a stop's path: it runs cold, and each lambda's first use cost 1-4 ms here.
   */
  default void killAll() {
    for (long pid : CgroupLimits.pids(pidsDir().resolve("cgroup.procs"))) {
      Optional<ProcessHandle> process = ProcessHandle.of(pid);
      if (process.isPresent()) {
        process.get().destroyForcibly();
      }
    }
  }

  /** Kills whatever is still in the cgroup(s) and removes them. */
  void remove();

  /** The argv that runs {@code command} inside this run's cgroups. */
  default List<String> wrap(List<String> command) {
    List<String> argv = new ArrayList<>(List.of("/bin/sh", "-c", JOIN_THEN_EXEC, "cinchmcp-join"));
    argv.add(Integer.toString(procsFiles().size()));
    procsFiles().forEach(file -> argv.add(file.toString()));
    argv.addAll(command);
    return argv;
  }
}
