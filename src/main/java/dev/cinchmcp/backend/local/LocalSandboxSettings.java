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
 * Everything the local gVisor backend can be told; tests change fields through {@code with...}.
 *
 * @param runsc a bare name is looked up on PATH, a path is used as is
 * @param runscEnvironment runsc's own environment (never the program's): keeps secrets from runsc
 * @param poolSize sandboxes per language started ahead of time (0: none)
 * @param hostEtc the host's /etc ({@link OciSpec#ETC_PIECES}); a planted tree in tests
 */
public record LocalSandboxSettings(
    String runsc,
    Path stateDir,
    SandboxLimits limits,
    int maxConcurrent,
    Map<String, String> runscEnvironment,
    boolean hostCgroups,
    int poolSize,
    Duration poolIdleLimit,
    Path hostEtc) {

  /** The most a runner takes (the server allows fewer); ~20-25 MB each. */
  public static final int MAX_POOL_SIZE = 16;

  public static final Duration DEFAULT_POOL_IDLE_LIMIT = Duration.ofMinutes(10);

  /** How long after the server's own wall clock a sandbox's backstop kills it regardless. */
  static final long BACKSTOP_GRACE_MILLIS = 1_000;

  public LocalSandboxSettings {
    Objects.requireNonNull(runsc, "runsc");
    Objects.requireNonNull(stateDir, "stateDir");
    Objects.requireNonNull(limits, "limits");
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

  /** The service's limits, 4 sandboxes at once (each held to half a CPU, 4 fill 2 cores). */
  public static LocalSandboxSettings defaults() {
    String path =
        System.getenv()
            .getOrDefault("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
    return new LocalSandboxSettings(
        "runsc",
        StateDirectory.defaultPath(System.getenv(), Path.of(System.getProperty("java.io.tmpdir"))),
        SandboxLimits.SERVICE,
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

  LocalSandboxSettings withWallClock(Duration value) {
    return withLimits(
        new SandboxLimits((int) value.toSeconds(), limits.memoryMegabytes(), limits.cpus()));
  }

  public LocalSandboxSettings withLimits(SandboxLimits value) {
    return with(c -> c.limits = value);
  }

  LocalSandboxSettings withMaxConcurrent(int value) {
    return with(c -> c.maxConcurrent = value);
  }

  LocalSandboxSettings withRunscEnvironment(Map<String, String> value) {
    return with(c -> c.runscEnvironment = value);
  }

  LocalSandboxSettings withoutHostCgroups() {
    return with(c -> c.hostCgroups = false);
  }

  public LocalSandboxSettings withPoolSize(int value) {
    return with(c -> c.poolSize = value);
  }

  LocalSandboxSettings withPoolIdleLimit(Duration value) {
    return with(c -> c.poolIdleLimit = value);
  }

  LocalSandboxSettings withHostEtc(Path value) {
    return with(c -> c.hostEtc = value);
  }

  private LocalSandboxSettings with(Consumer<Copy> change) {
    Copy c = new Copy();
    change.accept(c);
    return new LocalSandboxSettings(
        c.runsc,
        c.stateDir,
        c.limits,
        c.maxConcurrent,
        c.runscEnvironment,
        c.hostCgroups,
        c.poolSize,
        c.poolIdleLimit,
        c.hostEtc);
  }

  private final class Copy {
    String runsc = LocalSandboxSettings.this.runsc;
    Path stateDir = LocalSandboxSettings.this.stateDir;
    SandboxLimits limits = LocalSandboxSettings.this.limits;
    int maxConcurrent = LocalSandboxSettings.this.maxConcurrent;
    Map<String, String> runscEnvironment = LocalSandboxSettings.this.runscEnvironment;
    boolean hostCgroups = LocalSandboxSettings.this.hostCgroups;
    int poolSize = LocalSandboxSettings.this.poolSize;
    Duration poolIdleLimit = LocalSandboxSettings.this.poolIdleLimit;
    Path hostEtc = LocalSandboxSettings.this.hostEtc;
  }

  public Duration wallClock() {
    return limits.timeLimit();
  }

  long memoryBytes() {
    return limits.memoryBytes();
  }

  long memoryMebibytes() {
    return limits.memoryMegabytes();
  }

  double cpuShare() {
    return limits.cpus();
  }

  int maxProcesses() {
    return SandboxFacts.MAX_PROCESSES;
  }

  /** As {@code timeout} and the supervisor shell take it: "11.0s". */
  String backstopSeconds() {
    return (wallClock().toMillis() + BACKSTOP_GRACE_MILLIS) / 1000.0 + "s";
  }

  /**
   * Host threads: the Sentry and gofer use ~50, each sandbox process adds ptrace stubs (16 each was
   * hit once on a loaded machine). A backstop: RLIMIT_NPROC inside refuses forks.
   */
  int hostTaskLimit() {
    return 128 + 32 * maxProcesses();
  }

  String memoryNote() {
    return "[sandbox] killed: the program used more than its "
        + memoryMebibytes()
        + " MB of memory";
  }
}
