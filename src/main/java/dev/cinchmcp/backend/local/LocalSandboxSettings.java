package dev.cinchmcp.backend.local;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Everything the local gVisor backend can be told. {@link #defaults()} is what the server uses;
 * tests change single fields (a missing runsc, a planted environment) through the {@code with...}
 * methods.
 *
 * @param runsc the runsc binary: a bare name is looked up on PATH, a path is used as is
 * @param stateDir where runsc keeps its state ({@code --root}) and where bundles are written; only
 *     this backend may use it, because leftovers in it are deleted at start-up
 * @param wallClock how long a run may take, from the start of runsc, before it is killed
 * @param memoryBytes memory for the program; the sandbox as a whole gets {@link
 *     #GVISOR_OVERHEAD_BYTES} more
 * @param maxProcesses the most processes (and threads) the program may have at once
 * @param cpuShare the CPUs the sandbox may use, e.g. 0.5 for half a CPU
 * @param maxConcurrent how many sandboxes may run at once; further runs queue
 * @param runscEnvironment the environment runsc itself starts with. Never reaches the program: its
 *     environment is written into config.json from scratch; this only keeps the server's secrets
 *     away from runsc as well (and lets a test plant a marker to prove the first point)
 */
public record LocalSandboxSettings(
    String runsc,
    Path stateDir,
    Duration wallClock,
    long memoryBytes,
    int maxProcesses,
    double cpuShare,
    int maxConcurrent,
    Map<String, String> runscEnvironment) {

  /** gVisor's own kernel (the Sentry) and gofer use ~25 MB; the cgroup allows for that on top. */
  public static final long GVISOR_OVERHEAD_BYTES = 64L << 20;

  public LocalSandboxSettings {
    Objects.requireNonNull(runsc, "runsc");
    Objects.requireNonNull(stateDir, "stateDir");
    Objects.requireNonNull(wallClock, "wallClock");
    runscEnvironment = Map.copyOf(runscEnvironment);
    if (maxConcurrent < 1) {
      throw new IllegalArgumentException("maxConcurrent must be at least 1");
    }
  }

  /**
   * 10 s, 256 MB, 64 processes, half a CPU, 4 sandboxes at once (2 cores: more only queue on the
   * CPU; each sandbox is held to half a CPU, so 4 fill 2 cores).
   */
  public static LocalSandboxSettings defaults() {
    String path =
        System.getenv()
            .getOrDefault("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
    return new LocalSandboxSettings(
        "runsc",
        Path.of(System.getProperty("java.io.tmpdir"), "cinchmcp-local"),
        Duration.ofSeconds(10),
        256L << 20,
        64,
        0.5,
        4,
        Map.of("PATH", path));
  }

  public LocalSandboxSettings withRunsc(String newRunsc) {
    return new LocalSandboxSettings(
        newRunsc,
        stateDir,
        wallClock,
        memoryBytes,
        maxProcesses,
        cpuShare,
        maxConcurrent,
        runscEnvironment);
  }

  public LocalSandboxSettings withStateDir(Path newStateDir) {
    return new LocalSandboxSettings(
        runsc,
        newStateDir,
        wallClock,
        memoryBytes,
        maxProcesses,
        cpuShare,
        maxConcurrent,
        runscEnvironment);
  }

  public LocalSandboxSettings withWallClock(Duration newWallClock) {
    return new LocalSandboxSettings(
        runsc,
        stateDir,
        newWallClock,
        memoryBytes,
        maxProcesses,
        cpuShare,
        maxConcurrent,
        runscEnvironment);
  }

  public LocalSandboxSettings withMaxConcurrent(int newMaxConcurrent) {
    return new LocalSandboxSettings(
        runsc,
        stateDir,
        wallClock,
        memoryBytes,
        maxProcesses,
        cpuShare,
        newMaxConcurrent,
        runscEnvironment);
  }

  public LocalSandboxSettings withCpuShare(double newCpuShare) {
    return new LocalSandboxSettings(
        runsc,
        stateDir,
        wallClock,
        memoryBytes,
        maxProcesses,
        newCpuShare,
        maxConcurrent,
        runscEnvironment);
  }

  public LocalSandboxSettings withRunscEnvironment(Map<String, String> newEnvironment) {
    return new LocalSandboxSettings(
        runsc,
        stateDir,
        wallClock,
        memoryBytes,
        maxProcesses,
        cpuShare,
        maxConcurrent,
        newEnvironment);
  }

  /** The directory runsc keeps its container state in. */
  Path runscRoot() {
    return stateDir.resolve("runsc");
  }

  /** The directory the per-run bundles are written to. */
  Path bundles() {
    return stateDir.resolve("bundles");
  }

  long memoryMebibytes() {
    return memoryBytes >> 20;
  }
}
