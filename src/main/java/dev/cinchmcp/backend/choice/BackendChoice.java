package dev.cinchmcp.backend.choice;

import dev.cinchmcp.backend.CodeRunner;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.SandboxFacts;
import dev.cinchmcp.backend.cinch.CinchApiRunner;
import dev.cinchmcp.backend.docker.DockerRunner;
import dev.cinchmcp.backend.docker.DockerSettings;
import dev.cinchmcp.backend.local.LocalSandboxRunner;
import dev.cinchmcp.backend.local.LocalSandboxSettings;
import dev.cinchmcp.config.Backend;
import dev.cinchmcp.config.DockerOptions;
import dev.cinchmcp.config.SandboxLimits;
import dev.cinchmcp.config.Settings;
import dev.cinchmcp.config.Version;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BiFunction;

/**
 * Decides which backend serves ({@code CINCH_BACKEND}) and builds it, for the server and {@code
 * --check}. A backend that cannot run answers every call with what to fix. {@code auto}: cinch when
 * a key is set, else local when gVisor works, else docker when an engine answers, else the
 * missing-key error with why neither could stand in.
 *
 * @param summary one line for the log and {@code --check}
 * @param problems what stops it from running code; empty when it can
 */
public record BackendChoice(
    CodeRunner runner, SandboxFacts facts, String summary, List<String> problems) {

  private static final Duration CONNECT_LIMIT = Duration.ofSeconds(10);
  private static final String RESTART =
      " Nothing was run. Tell the user; the server must be restarted after the change.";

  public boolean usable() {
    return problems.isEmpty();
  }

  /**
   * {@code cinchAfter}: when the Cinch runner is built on {@code workers} (TLS set-up off the
   * caller's thread) and the local gVisor self-test may start.
   */
  public static BackendChoice choose(
      Settings settings,
      CompletableFuture<?> cinchAfter,
      ExecutorService workers,
      ScheduledExecutorService timers,
      BiFunction<Settings, CompletableFuture<?>, LocalSandboxRunner> startLocal) {
    Backend backend = settings.backend();
    if (backend == Backend.CINCH || (backend == Backend.AUTO && settings.apiKey().isPresent())) {
      return cinch(settings, cinchAfter, workers, timers);
    }
    if (!settings.limitProblems().isEmpty()) {
      // A limit set wrong is refused rather than replaced by a default the user did not want.
      // Without a key, the sandbox on this machine was meant: the missing key is not what to fix.
      return unavailable(
          backend == Backend.AUTO
              ? settings.problems().stream().filter(p -> !p.equals(Settings.MISSING_KEY)).toList()
              : settings.limitProblems());
    }
    if (backend == Backend.DOCKER) {
      return Docker.docker(settings, cinchAfter);
    }
    if (backend == Backend.AUTO && !settings.onlyKeyMissing()) {
      return unavailable(settings.problems()); // something is set wrong: say so rather than guess
    }
    LocalSandboxRunner local = startLocal.apply(settings, cinchAfter);
    long timeLimit = local.settings().wallClock().toSeconds();
    if (local.usable()) { // its gVisor self-test still runs: a call that comes first waits for it
      String versions = local.versions().describe();
      return new BackendChoice(
          local,
          new SandboxFacts(
              versions,
              local.limits().describe(),
              SandboxFacts.GVISOR,
              SandboxFacts.installedPackages(local.packages().describe()),
              timeLimit),
          "backend local: a gVisor sandbox on this machine, %s; %s; %s"
              .formatted(versions, local.limits().summary(), poolSummary(local)),
          List.of());
    }
    String why = local.unavailableReason();
    if (backend != Backend.LOCAL) {
      local.close();
      return Docker.standIn(settings, cinchAfter, why);
    }
    // As asked for: it answers every call with what to install.
    return new BackendChoice(
        local,
        new SandboxFacts(
            "Python and Node.js",
            SandboxFacts.limits(settings.limits()),
            SandboxFacts.GVISOR,
            SandboxFacts.STANDARD_LIBRARY_ONLY,
            timeLimit),
        "backend local: UNAVAILABLE, " + why,
        List.of("The local gVisor sandbox is not available: " + why));
  }

  public static LocalSandboxRunner startLocal(Settings settings, CompletableFuture<?> after) {
    return LocalSandboxRunner.start(
        LocalSandboxSettings.defaults()
            .withRunsc(settings.runsc())
            .withPoolSize(settings.localPool())
            .withLimits(settings.limits()),
        after);
  }

  private static String poolSummary(LocalSandboxRunner local) {
    int size = local.settings().poolSize();
    return size == 0
        ? "no sandboxes started ahead of time (%s=0)".formatted(Settings.LOCAL_POOL)
        : ("%d sandbox%s per language started ahead of time (~20-25 MB each while idle, stopped"
                + " after %d idle minutes; %s=0 turns this off)")
            .formatted(
                size,
                size == 1 ? "" : "es",
                LocalSandboxSettings.DEFAULT_POOL_IDLE_LIMIT.toMinutes(),
                Settings.LOCAL_POOL);
  }

  private static BackendChoice cinch(
      Settings settings,
      CompletableFuture<?> after,
      ExecutorService workers,
      ScheduledExecutorService timers) {
    if (!settings.usable()) {
      return unavailable(settings.problems());
    }
    // Never longer than the whole call (CINCH_TIMEOUT_MS).
    Duration connectTimeout =
        settings.timeout().compareTo(CONNECT_LIMIT) < 0 ? settings.timeout() : CONNECT_LIMIT;
    CompletableFuture<CodeRunner> runner =
        after.thenApplyAsync(
            ignored ->
                new CinchApiRunner(
                    settings.runUri(),
                    settings.apiKey().orElseThrow(),
                    settings.timeout(),
                    Version.userAgent(),
                    CinchApiRunner.newHttpClient(settings.baseUri(), connectTimeout),
                    workers,
                    timers,
                    Clock.systemUTC()),
            workers);
    return new BackendChoice(
        new DeferredRunner("cinch", runner),
        SandboxFacts.SERVICE,
        "backend cinch: " + settings.describe() + "; " + serviceLimits(settings),
        List.of());
  }

  /** The service holds its own limits, whatever {@code CINCH_SANDBOX_*} says. */
  private static String serviceLimits(Settings settings) {
    String limits = "limits: the service's (" + SandboxFacts.SERVICE_LIMITS + ")";
    return settings.limits().isService()
        ? limits
        : limits
            + "; %s, %s and %s apply to the local and docker backends only"
                .formatted(SandboxLimits.TIME_LIMIT_S, SandboxLimits.MEMORY_MB, SandboxLimits.CPUS);
  }

  static BackendChoice unavailable(List<String> problems) {
    RunFailure failure =
        new RunFailure(
            RunFailure.Reason.NOT_CONFIGURED,
            "This server is not configured to run code: " + String.join(" ", problems) + RESTART);
    return new BackendChoice(
        new UnavailableRunner("none", failure),
        SandboxFacts.SERVICE,
        "no backend can run code",
        problems);
  }

  /** A class of its own: nothing of the engine client is loaded unless docker is chosen. */
  static final class Docker {

    private Docker() {}

    static DockerSettings settingsOf(Settings settings) {
      DockerOptions options = settings.docker();
      return DockerSettings.of(
          options.pythonImage(),
          options.nodeImage(),
          options.runtime().orElse(null),
          options.discovery(),
          settings.limits());
    }

    /** A {@code CINCH_DOCKER_*} given wrong is said rather than run with its default. */
    static BackendChoice docker(Settings settings, CompletableFuture<?> after) {
      List<String> wrong =
          settings.problems().stream().filter(p -> p.startsWith("CINCH_DOCKER_")).toList();
      if (!wrong.isEmpty()) {
        return unavailable(wrong);
      }
      return of(DockerRunner.start(settingsOf(settings), settings.docker().pool(), after));
    }

    /** For {@code auto} with no key and no local gVisor ({@code localWhyNot}). */
    static BackendChoice standIn(
        Settings settings, CompletableFuture<?> after, String localWhyNot) {
      DockerSettings docker = settingsOf(settings);
      String whyNot = "no container engine answered either";
      if (DockerRunner.engineAnswers(docker).isPresent()) {
        DockerRunner runner = DockerRunner.start(docker, settings.docker().pool(), after);
        if (runner.usable()) {
          return of(runner);
        }
        runner.close();
        whyNot = "nor the container engine: " + runner.unavailableReason();
      }
      return unavailable(
          List.of(
              "%s (No local gVisor sandbox could stand in either: %s; %s.)"
                  .formatted(Settings.MISSING_KEY, localWhyNot, whyNot)));
    }

    private static BackendChoice of(DockerRunner runner) {
      return new BackendChoice(
          runner,
          runner.sandboxFacts(),
          runner.summary(),
          runner.usable()
              ? List.of()
              : List.of("The docker backend is not available: " + runner.unavailableReason()));
    }
  }
}
