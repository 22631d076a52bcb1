package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.CpuReserve;
import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.config.SandboxLimits;
import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the local backend can be used: {@link #prepare} (tens of ms, before the server is ready),
 * then {@link #selfTest} (~0.8 s in the background: one real program per language, which measures
 * the memory used before a program's first line). What is missing is named with what to install.
 */
final class GvisorProbe {

  private static final Logger log = LoggerFactory.getLogger(GvisorProbe.class);

  static final String INSTALL_HINT =
      "install gVisor (https://gvisor.dev/docs/user_guide/install/) or apt-get install runsc";

  private static final Map<Language, String> VERSION_PROGRAMS =
      Map.of(
          Language.PYTHON, "import platform; print(platform.python_version())",
          Language.JAVASCRIPT, "console.log(process.versions.node)");

  record Prepared(
      String unusableReason,
      SandboxHost host,
      EnforcedLimits limits,
      RuntimeVersions versions,
      HostPackages packages) {}

  record SelfTest(String failure, SandboxHost host) {} // failure: null when it passed

  private GvisorProbe() {}

  static Prepared prepare(LocalSandboxSettings settings, ExecutorService streamThreads) {
    Optional<Path> binary = Runsc.locate(settings.runsc(), settings.runscEnvironment());
    if (binary.isEmpty()) {
      String where = settings.runsc().contains("/") ? "at " + settings.runsc() : "on PATH";
      return unusable("runsc not found " + where + ": " + INSTALL_HINT);
    }
    Optional<Path> timeout =
        Runsc.locate("timeout", Map.of("PATH", "/usr/bin:/bin"))
            .or(() -> Runsc.locate("timeout", settings.runscEnvironment()));
    if (timeout.isEmpty()) {
      return unusable(
          "timeout (GNU coreutils), which stops a sandbox at its time limit even if the server"
              + " dies, is not installed: install coreutils");
    }
    SandboxRuntimes runtimes = SandboxRuntimes.find();
    if (runtimes.languages().isEmpty()) {
      String python = SandboxRuntimes.missingMessage(Language.PYTHON);
      String node = SandboxRuntimes.missingMessage(Language.JAVASCRIPT);
      return unusable("no interpreter the sandbox can see: " + python + "; " + node);
    }
    StateDirectory.Prepared state;
    try {
      state = StateDirectory.prepare(settings.stateDir());
    } catch (IOException | RuntimeException e) {
      String cause = settings.stateDir() + " (" + e.getMessage() + ")";
      String fix = "set java.io.tmpdir or XDG_RUNTIME_DIR to a directory of this user's own";
      return unusable("no private state directory could be made next to " + cause + ": " + fix);
    }
    HostCgroups.Result cgroups =
        settings.hostCgroups()
            ? HostCgroups.detect()
            : HostCgroups.Result.unavailable("host cgroups are turned off for this runner");
    if (cgroups.unavailableReason() != null) {
      log.info("Local sandbox without host cgroups: {}", cgroups.unavailableReason());
    }
    String allTogether = cgroups.limits().map(limits -> capAll(limits, settings)).orElse(null);
    for (Language language : Language.values()) {
      if (runtimes.interpreter(language).isEmpty()) {
        String missing = SandboxRuntimes.missingMessage(language);
        log.warn("Local sandbox without {}: {}", language.wireName(), missing);
      }
    }
    SandboxHost host =
        new SandboxHost(
            settings,
            new Runsc(binary.get(), state.runsc(), settings.runscEnvironment()),
            state,
            cgroups.limits(),
            runtimes,
            timeout.get(),
            Map.of(),
            new MatplotlibFontCache(state.root()),
            streamThreads);
    boolean node = runtimes.languages().contains(Language.JAVASCRIPT);
    HostPackages packages = HostPackages.find(Path.of("/"), runtimes.pythonDirs(), node); // ~6 ms
    EnforcedLimits limits = EnforcedLimits.of(settings, cgroups, allTogether);
    return new Prepared(null, host, limits, runtimes.versions(), packages);
  }

  /** Holds all sandboxes together off a reserve of the CPU; says how, or null. */
  private static String capAll(HostCgroups limits, LocalSandboxSettings settings) {
    int cores = Runtime.getRuntime().availableProcessors();
    OptionalDouble cap = CpuReserve.cap(cores, settings.maxConcurrent(), settings.cpuShare());
    try {
      limits.capAll(cap);
    } catch (IOException e) {
      log.info("Local sandboxes together are not kept off a reserve of the CPU: {}", e.toString());
      return null;
    }
    return cap.isPresent() ? HostCgroups.describeCap(cap.getAsDouble(), cores) : null;
  }

  /** The self-test once {@code after} completes, then matplotlib's font list; always a verdict. */
  static CompletableFuture<SelfTest> selfTestAfter(
      CompletableFuture<?> after, Prepared prepared, Set<Sandbox> running, Executor executor) {
    long started = System.nanoTime();
    CompletableFuture<SelfTest> test =
        after
            .handleAsync((ignored, error) -> selfTest(prepared, running), executor)
            .exceptionally(
                error ->
                    new SelfTest(
                        "the gVisor self-test did not run (" + error.getCause() + ")",
                        prepared.host()));
    test.thenAccept(
        verdict -> {
          long millis = (System.nanoTime() - started) / 1_000_000;
          if (verdict.failure() != null) {
            log.warn("Local gVisor sandbox unavailable: {}", verdict.failure());
            return;
          }
          log.info(
              "Local gVisor sandbox self-test passed in {} ms ({}, {} at once; {})",
              millis,
              prepared.host().runsc().binary(),
              prepared.host().settings().maxConcurrent(),
              prepared.limits().summary());
          // matplotlib's font list, where the sandbox's Python has matplotlib (~1 s of CPU once)
          SandboxRuntimes runtimes = prepared.host().runtimes(); // python() set when dirs are
          MatplotlibFontCache.matplotlibIn(runtimes.pythonDirs())
              .ifPresent(
                  dir -> verdict.host().fontCache().buildInBackground(runtimes.python(), dir));
        });
    return test;
  }

  static SelfTest selfTest(Prepared prepared, Set<Sandbox> running) {
    SandboxHost host = prepared.host();
    // The service's limits: a user's 1 s or tenth of a CPU must not make gVisor look broken.
    SandboxHost service = host.with(host.settings().withLimits(SandboxLimits.SERVICE), Map.of());
    StateDirectory.removeLeftovers(host);
    Map<Language, Long> overheads = new EnumMap<>(Language.class);
    for (Language language : host.runtimes().languages()) {
      Program program = new Program(VERSION_PROGRAMS.get(language), language);
      Sandbox run = Sandbox.cold(language, service).lowPriority();
      running.add(run);
      try {
        RunResult result = run.run(program);
        if (!result.succeeded()) {
          String how = result.exitCode() + (result.timedOut() ? " (timed out)" : "");
          String said = result.stderr().text().strip().lines().findFirst().orElse("no output");
          String test = "the gVisor self-test (" + language.wireName() + ")";
          return new SelfTest(test + " failed with exit code " + how + ": " + said, host);
        }
        String inside = result.stdout().text().strip();
        String outside = prepared.versions().version(language).orElse(inside);
        if (!inside.equals(outside)) {
          log.warn("{} is {} inside the sandbox, {} on the host", language, inside, outside);
        }
        if (run.peakMemory() > 0) {
          overheads.put(language, run.peakMemory() + OVERHEAD_MARGIN_BYTES);
        }
      } catch (RunFailure e) {
        return new SelfTest(e.getMessage(), host);
      } finally {
        running.remove(run);
      }
    }
    log.debug("Sandbox memory before a program's first line: {}", overheads);
    return new SelfTest(null, host.with(host.settings(), overheads));
  }

  /** Slack on the measured start-up memory: a program's own first pages, the stream buffers. */
  private static final long OVERHEAD_MARGIN_BYTES = 8L << 20;

  private static Prepared unusable(String reason) {
    return new Prepared(reason, null, null, RuntimeVersions.NONE, HostPackages.NONE);
  }
}
