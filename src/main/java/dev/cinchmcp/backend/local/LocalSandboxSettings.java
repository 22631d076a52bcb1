package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.SandboxFacts;
import dev.cinchmcp.config.SandboxLimits;
import dev.cinchmcp.config.Settings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Everything the local gVisor backend can be told. {@link #defaults()} is what the server uses;
 * tests change single fields (a missing runsc, a planted environment) through the {@code with...}
 * methods.
 *
 * @param runsc the runsc binary: a bare name is looked up on PATH, a path is used as is
 * @param stateDir where runsc keeps its state ({@code --root}) and where bundles are written; it
 *     must be private to this user ({@link StateDirectory} checks it, and takes a fresh one instead
 *     when it is not); leftovers of dead servers in it are deleted at start-up
 * @param wallClock how long a run may take, from the start of runsc, before it is killed
 * @param memoryBytes memory for the program itself; a run's cgroup also allows what gVisor and the
 *     interpreter use before the program starts, as the self-test measured it
 * @param maxProcesses the most processes (and threads) the program may have at once
 * @param cpuShare the CPUs the sandbox may use, e.g. 0.5 for half a CPU
 * @param maxConcurrent how many sandboxes may run at once; further runs queue
 * @param runscEnvironment the environment runsc itself starts with. Never reaches the program: its
 *     environment is written into config.json from scratch; this only keeps the server's secrets
 *     away from runsc as well (and lets a test plant a marker to prove the first point)
 * @param hostCgroups whether to use host cgroups when this user may make them; off, only the
 *     in-sandbox limits hold (how a user without cgroups runs; tests use it)
 * @param poolSize how many sandboxes per language are started ahead of time and wait for a call (0:
 *     none, every run starts its own sandbox); see {@link SandboxesAhead}
 * @param poolIdleLimit how long after the last call the waiting sandboxes are stopped, so that an
 *     idle server costs nothing; the next call refills them
 * @param hostEtc the host's /etc, whose few pieces installed packages need are shown ({@link
 *     HostEtc}); a planted tree in tests
 */
public record LocalSandboxSettings(
    String runsc,
    Path stateDir,
    Duration wallClock,
    long memoryBytes,
    int maxProcesses,
    double cpuShare,
    int maxConcurrent,
    Map<String, String> runscEnvironment,
    boolean hostCgroups,
    int poolSize,
    Duration poolIdleLimit,
    Path hostEtc) {

  /** The most a runner takes (the server allows fewer: Settings.MAX_LOCAL_POOL); ~20-25 MB each. */
  public static final int MAX_POOL_SIZE = 16;

  public static final Duration DEFAULT_POOL_IDLE_LIMIT = Duration.ofMinutes(10);

  /** How long after the server's own wall clock a sandbox's backstop kills it regardless. */
  static final long BACKSTOP_GRACE_MILLIS = 1_000;

  public LocalSandboxSettings {
    Objects.requireNonNull(runsc, "runsc");
    Objects.requireNonNull(stateDir, "stateDir");
    Objects.requireNonNull(wallClock, "wallClock");
    Objects.requireNonNull(poolIdleLimit, "poolIdleLimit");
    Objects.requireNonNull(hostEtc, "hostEtc");
    runscEnvironment = Map.copyOf(runscEnvironment);
    if (maxConcurrent < 1) {
      throw new IllegalArgumentException("maxConcurrent must be at least 1");
    }
    if (poolSize < 0 || poolSize > MAX_POOL_SIZE) {
      throw new IllegalArgumentException("poolSize must be 0 to " + MAX_POOL_SIZE);
    }
  }

  /**
   * The service's limits ({@link SandboxLimits#SERVICE}: 10 s, 256 MB, half a CPU), 64 processes as
   * {@link SandboxFacts} states them, 4 sandboxes at once (2 cores: more only queue on the CPU;
   * each sandbox is held to half a CPU, so 4 fill 2 cores).
   */
  public static LocalSandboxSettings defaults() {
    String path =
        System.getenv()
            .getOrDefault("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
    return new LocalSandboxSettings(
        "runsc",
        StateDirectory.defaultPath(System.getenv(), Path.of(System.getProperty("java.io.tmpdir"))),
        SandboxLimits.SERVICE.timeLimit(),
        SandboxLimits.SERVICE.memoryBytes(),
        SandboxFacts.MAX_PROCESSES,
        SandboxLimits.SERVICE.cpus(),
        SandboxFacts.MAX_CONCURRENT,
        Map.of("PATH", path),
        true,
        Settings.DEFAULT_LOCAL_POOL,
        DEFAULT_POOL_IDLE_LIMIT,
        Path.of("/etc"));
  }

  public LocalSandboxSettings withRunsc(String value) {
    return with(c -> c.runsc = value);
  }

  LocalSandboxSettings withStateDir(Path value) {
    return with(c -> c.stateDir = value);
  }

  /** With runs allowed {@code value} from their start (the service's 10 s by default; tests). */
  LocalSandboxSettings withWallClock(Duration value) {
    return with(c -> c.wallClock = value);
  }

  /**
   * With the limits the user set ({@code CINCH_SANDBOX_*}): the wall clock, the program's memory
   * and its CPU share. Everything that derives from them follows (the run's cgroup, RLIMIT_AS,
   * Node's heap and watchdog, the backstops, the cap on all sandboxes together).
   */
  public LocalSandboxSettings withLimits(SandboxLimits limits) {
    return with(
        c -> {
          c.wallClock = limits.timeLimit();
          c.memoryBytes = limits.memoryBytes();
          c.cpuShare = limits.cpus();
        });
  }

  LocalSandboxSettings withMaxConcurrent(int value) {
    return with(c -> c.maxConcurrent = value);
  }

  LocalSandboxSettings withRunscEnvironment(Map<String, String> value) {
    return with(c -> c.runscEnvironment = value);
  }

  /** Without host cgroups, as for a user who may not make any: the in-sandbox limits only. */
  LocalSandboxSettings withoutHostCgroups() {
    return with(c -> c.hostCgroups = false);
  }

  /** With {@code value} sandboxes per language started ahead of time (0: none). */
  public LocalSandboxSettings withPoolSize(int value) {
    return with(c -> c.poolSize = value);
  }

  LocalSandboxSettings withPoolIdleLimit(Duration value) {
    return with(c -> c.poolIdleLimit = value);
  }

  /** With {@code value} standing for the host's /etc (a planted tree, in tests). */
  LocalSandboxSettings withHostEtc(Path value) {
    return with(c -> c.hostEtc = value);
  }

  /** These settings with what {@code change} sets; the one place that copies every field. */
  private LocalSandboxSettings with(Consumer<Copy> change) {
    Copy c = new Copy(this);
    change.accept(c);
    return new LocalSandboxSettings(
        c.runsc,
        c.stateDir,
        c.wallClock,
        c.memoryBytes,
        c.maxProcesses,
        c.cpuShare,
        c.maxConcurrent,
        c.runscEnvironment,
        c.hostCgroups,
        c.poolSize,
        c.poolIdleLimit,
        c.hostEtc);
  }

  /** The fields of one settings, to change before they become new settings. */
  private static final class Copy {
    String runsc;
    Path stateDir;
    Duration wallClock;
    long memoryBytes;
    final int maxProcesses;
    double cpuShare;
    int maxConcurrent;
    Map<String, String> runscEnvironment;
    boolean hostCgroups;
    int poolSize;
    Duration poolIdleLimit;
    Path hostEtc;

    Copy(LocalSandboxSettings s) {
      runsc = s.runsc;
      stateDir = s.stateDir;
      wallClock = s.wallClock;
      memoryBytes = s.memoryBytes;
      maxProcesses = s.maxProcesses;
      cpuShare = s.cpuShare;
      maxConcurrent = s.maxConcurrent;
      runscEnvironment = s.runscEnvironment;
      hostCgroups = s.hostCgroups;
      poolSize = s.poolSize;
      poolIdleLimit = s.poolIdleLimit;
      hostEtc = s.hostEtc;
    }
  }

  long memoryMebibytes() {
    return memoryBytes >> 20;
  }

  /**
   * The wall clock plus its grace, as {@code timeout} and the supervisor shell take it: "11.0s".
   */
  String backstopSeconds() {
    return (wallClock.toMillis() + BACKSTOP_GRACE_MILLIS) / 1000.0 + "s";
  }

  /**
   * Host threads a whole sandbox may have: the Sentry and gofer use ~50; under ptrace each sandbox
   * process adds stub threads (measured: 64 processes that exec'd /bin/sleep needed more than 8
   * each, and 16 each was still hit once on a loaded machine, so the sandbox died before the
   * program's own fork was refused). This is the backstop against a runaway Sentry; RLIMIT_NPROC
   * inside stops the program's forks first, with a clean EAGAIN.
   */
  int hostTaskLimit() {
    return 128 + 32 * maxProcesses;
  }

  /** What a program killed for its memory is told, on its stderr. */
  String memoryNote() {
    return "[sandbox] killed: the program used more than its "
        + memoryMebibytes()
        + " MB of memory";
  }
}
