package dev.cinchmcp.backend.local;

import static dev.cinchmcp.backend.Language.PYTHON;

import dev.cinchmcp.backend.CodeRunner;
import dev.cinchmcp.backend.DaemonThreads;
import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunListener;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.SandboxEnding;
import dev.cinchmcp.backend.WarmPool;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs each program in a fresh gVisor sandbox on this machine ({@link Sandbox}); {@link #start}
 * returns in tens of milliseconds and the self-test ({@link GvisorProbe}) runs in the background.
 * At most {@link LocalSandboxSettings#maxConcurrent()} sandboxes run at once, the rest queue (their
 * time starts with their sandbox); sandboxes started ahead ({@link Sandbox#startAhead}; Python ones
 * that imported a data program's modules: {@link DataSandboxes}), each used once, make a call pay
 * ~20 ms for Python here against ~280 ms cold. If the probe failed every call fails with {@link
 * RunFailure.Reason#SANDBOX_UNAVAILABLE}: code never runs outside gVisor.
 */
public final class LocalSandboxRunner implements CodeRunner, AutoCloseable {

  public static final String NAME = "local";
  private static final Logger log = LoggerFactory.getLogger(LocalSandboxRunner.class);

  private static final long CLOSE_WAIT_MILLIS = 5_000;

  /** How long a stop waits for a runsc start under way to be out (a few ms), to kill it. */
  private static final long START_WAIT_MILLIS = 100;

  private final LocalSandboxSettings settings;
  private final GvisorProbe.Prepared prepared;
  private final CompletableFuture<GvisorProbe.SelfTest> selfTest;
  private final ExecutorService sandboxes;
  private final ExecutorService streamThreads;

  private final Set<CompletableFuture<RunResult>> pending = ConcurrentHashMap.newKeySet();
  private final Set<Sandbox> running = ConcurrentHashMap.newKeySet();

  // Started ahead, once the self-test passed: null without a pool (data ones: or a Python).
  private final WarmPool<Sandbox> pool;
  private final DataSandboxes data;

  private LocalSandboxRunner(LocalSandboxSettings settings, CompletableFuture<?> selfTestAfter) {
    this.settings = settings;
    this.streamThreads =
        Executors.newCachedThreadPool(DaemonThreads.named("cinchmcp-sandbox-stream"));
    this.sandboxes =
        Executors.newFixedThreadPool(
            settings.maxConcurrent(), DaemonThreads.named("cinchmcp-sandbox"));
    this.prepared = GvisorProbe.prepare(settings);
    if (prepared.usable()) {
      this.selfTest =
          GvisorProbe.selfTestAfter(
              selfTestAfter, prepared, settings, streamThreads, running, sandboxes);
      Supplier<SandboxHost> host = () -> selfTest.join().host(); // asked once the test passed
      this.pool = settings.poolSize() == 0 ? null : plainPool(host);
      this.data =
          pool == null || prepared.python().isEmpty()
              ? null
              : new DataSandboxes(
                  settings.poolSize(),
                  settings.poolIdleLimit(),
                  prepared.pythonDirs(),
                  modules ->
                      Sandbox.startAhead(PYTHON, modules, settings, host.get(), streamThreads),
                  System::nanoTime);
      selfTest.thenAccept(
          test -> {
            if (test.failure() == null && pool != null) {
              pool.fill();
            }
          });
    } else {
      this.selfTest = CompletableFuture.completedFuture(null);
      this.pool = null;
      this.data = null;
      log.warn("Local gVisor sandbox unavailable: {}", prepared.unusableReason());
    }
  }

  private WarmPool<Sandbox> plainPool(Supplier<SandboxHost> host) {
    Map<Language, Integer> sizes = new EnumMap<>(Language.class);
    for (Language language : Language.values()) {
      if (prepared.host().runtimes().interpreter(language).isPresent()) {
        sizes.put(language, settings.poolSize());
      }
    }
    return new WarmPool<>(
        sizes,
        settings.poolIdleLimit(),
        language -> Sandbox.startAhead(language, List.of(), settings, host.get(), streamThreads),
        "cinchmcp-sandbox-pool");
  }

  /** A data sandbox when one imported only modules the program imports; else a plain one. */
  private Optional<Sandbox> takeAhead(Language language, List<String> modules) {
    return (data == null ? Optional.<Sandbox>empty() : data.take(modules))
        .or(() -> pool == null ? Optional.empty() : pool.take(language));
  }

  int dataWaiting() {
    return data == null ? 0 : data.waiting();
  }

  public int waiting(Language language) {
    return pool == null ? 0 : pool.waiting(language);
  }

  /** Whether every language has its full count of sandboxes waiting (for tests). */
  boolean poolFull() {
    return pool != null && pool.full();
  }

  public static LocalSandboxRunner start(LocalSandboxSettings settings) {
    return start(settings, CompletableFuture.completedFuture(null));
  }

  /**
   * With the self-test held until {@code after}: its sandboxes, CPU-heavy for a moment, must not
   * slow the answer to {@code initialize} on a small machine.
   */
  public static LocalSandboxRunner start(
      LocalSandboxSettings settings, CompletableFuture<?> after) {
    return new LocalSandboxRunner(settings, after);
  }

  @Override
  public String name() {
    return NAME;
  }

  public boolean usable() {
    return unavailableReason() == null;
  }

  /** Why runs cannot happen (something missing, or the self-test failed), or null. */
  public String unavailableReason() {
    if (!prepared.usable()) {
      return prepared.unusableReason();
    }
    GvisorProbe.SelfTest test = selfTest.getNow(null);
    return test == null ? null : test.failure();
  }

  /** Completes when the self-test is over, with why it failed, if it did (for tests). */
  public CompletableFuture<Optional<String>> selfTestOutcome() {
    return selfTest.thenApply(test -> Optional.ofNullable(unavailableReason()));
  }

  public RuntimeVersions versions() {
    return prepared.versions();
  }

  Optional<Path> fontList() {
    return prepared.usable() ? prepared.host().fontCache().file() : Optional.empty();
  }

  public HostPackages packages() {
    return prepared.packages();
  }

  /** Which limits hold on this machine; null when the backend is unavailable. */
  public EnforcedLimits limits() {
    return prepared.limits();
  }

  public LocalSandboxSettings settings() {
    return settings;
  }

  /** The state directory in use (the settings' one, or a fresh one if that was unsafe). */
  public Path stateDir() {
    return prepared.usable() ? prepared.host().state().root() : settings.stateDir();
  }

  @Override
  public CompletableFuture<RunResult> run(Program program, RunListener listener) {
    RunListener events = listener == null ? RunListener.NONE : listener;
    if (!prepared.usable()) {
      return CompletableFuture.failedFuture(SandboxExit.unavailable(prepared.unusableReason()));
    }
    if (prepared.host().runtimes().interpreter(program.language()).isEmpty()) {
      return CompletableFuture.failedFuture(SandboxExit.cannotRun(program.language()));
    }
    CompletableFuture<RunResult> future = new CompletableFuture<>();
    pending.add(future);
    // From now to its answer (it may wait for the self-test) no start ahead competes with it.
    List<String> modules = data == null ? List.of() : data.modulesOf(program);
    if (pool != null) {
      pool.callStarted();
    }
    if (data != null) {
      data.callStarted(modules);
    }
    future.whenComplete(
        (result, error) -> {
          pending.remove(future);
          if (pool != null) {
            pool.callEnded();
          }
          if (data != null) {
            data.callEnded();
          }
        });
    // A run that arrives before the self-test is done waits for it.
    selfTest.thenAccept(
        test -> {
          if (test.failure() != null) {
            future.completeExceptionally(SandboxExit.unavailable(test.failure()));
            return;
          }
          try {
            sandboxes.execute(() -> execute(program, modules, test.host(), future, events));
          } catch (RejectedExecutionException e) {
            future.completeExceptionally(
                new RunFailure(
                    RunFailure.Reason.STOPPED_BEFORE_START,
                    "The local sandbox runner is shutting down. Nothing was run."));
          }
        });
    return future;
  }

  /**
   * One call once its turn comes: a sandbox started ahead when one fits (its answer goes out before
   * its clean-up, tens of ms), else a cold one, and a cold one when the one taken died just before
   * its hand-over. A run ended by a stop on a signal is not answered.
   */
  private void execute(
      Program program,
      List<String> modules,
      SandboxHost host,
      CompletableFuture<RunResult> future,
      RunListener events) {
    if (future.isDone()) {
      return; // cancelled while queued
    }
    Sandbox sandbox =
        takeAhead(program.language(), modules)
            .map(taken -> taken.onResult(result -> answer(future, result)))
            .orElseGet(() -> Sandbox.cold(program.language(), settings, host, streamThreads));
    try {
      RunResult result;
      try {
        result = runIn(sandbox, program, future, events);
      } catch (Sandbox.HandOverFailed e) {
        if (stopping()) {
          return;
        }
        // It died just before its program: nothing ran, so a cold start runs it, as without a pool.
        log.debug(
            "Waiting sandbox {} could not take its program: {}", sandbox.id(), e.getMessage());
        sandbox = Sandbox.cold(program.language(), settings, host, streamThreads);
        result = runIn(sandbox, program, future, events);
      }
      if (!stopping()) {
        SandboxEnding.complete(
            future, result, events, "Local sandbox " + sandbox.id() + " timed out and was killed");
      }
    } catch (RuntimeException e) {
      if (!stopping()) {
        future.completeExceptionally(
            SandboxEnding.failure(
                e,
                events,
                log,
                "Local sandbox " + sandbox.id(),
                "The local sandbox",
                "Try again, or use the cinch backend."));
      }
    }
  }

  private void answer(CompletableFuture<RunResult> future, RunResult result) {
    if (!stopping()) {
      future.complete(result);
    }
  }

  private RunResult runIn(
      Sandbox sandbox, Program program, CompletableFuture<RunResult> future, RunListener events) {
    running.add(sandbox);
    // Cancelled (or failed by a close) before or during the run: run() kills and cleans up.
    future.whenComplete(
        (result, error) -> {
          if (error != null) {
            sandbox.cancel();
          }
        });
    events.sent(1);
    events.log(RunListener.Level.DEBUG, "Local sandbox " + sandbox.id() + sandbox.startNote());
    try {
      return sandbox.run(program);
    } finally {
      running.remove(sandbox);
    }
  }

  /** Kills every sandbox, running or waiting, and starts no other; the next start cleans up. */
  @Override
  public boolean stopNow() {
    Runsc runsc = prepared.usable() ? prepared.host().runsc() : null;
    if (runsc != null) {
      runsc.refuseStarts(); // no sandbox (a waiting one's refill, say) and no delete from here on
    }
    // One sweep first: sandboxes being started take every core they can get, and until they are
    // dead the rest of this stop waits for the CPU (the runs' own kills below took 20-35 ms more).
    boolean swept = killDescendants();
    boolean idle = killSandboxes() && !swept;
    // The process ends now. A runsc delete under way would outlive it by a second, and so would a
    // start under way when the stop came, which the kills above do not know of: once the starts
    // are out, a sweep of this process's children takes them all.
    if (runsc != null) {
      runsc.awaitStarts(START_WAIT_MILLIS);
    }
    if (killDescendants()) {
      idle = false; // it killed processes still to be reaped
    }
    return idle;
  }

  private boolean stopping() {
    return prepared.usable() && prepared.host().runsc().refusesStarts();
  }

  private static boolean killDescendants() {
    boolean any = false;
    for (ProcessHandle p : ProcessHandle.current().descendants().toList()) { // no lambda: cold
      any |= p.destroyForcibly();
    }
    return any;
  }

  /** Kills the running and waiting sandboxes and the font scan; says whether none was there. */
  private boolean killSandboxes() {
    boolean idle = running.isEmpty();
    sandboxes.shutdownNow();
    for (Sandbox sandbox : running) { // a loop, not a lambda: a stop runs this cold
      sandbox.cancel();
    }
    if ((pool != null && pool.stopNow()) | (data != null && data.stopNow())) {
      idle = false; // it killed waiting sandboxes, whose processes are still to be reaped
    }
    if (prepared.usable() && prepared.host().fontCache().stop()) {
      idle = false; // it killed the font scan's python
    }
    return idle;
  }

  /** Fails every unfinished future, kills every sandbox and waits until they are cleaned up. */
  @Override
  public void close() {
    killSandboxes(); // the clean-up below runs its runsc deletes to their end
    if (pool != null) {
      pool.close(); // what the waiting sandboxes left, removed
    }
    if (data != null) {
      data.close();
    }
    for (CompletableFuture<RunResult> future : pending) {
      future.completeExceptionally(SandboxEnding.shutDownWhileRunning("local sandbox runner"));
    }
    try {
      if (!sandboxes.awaitTermination(CLOSE_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
        log.warn("Local sandboxes were still being cleaned up when the server ended");
      }
      if (prepared.usable()) {
        // Its scan was killed above; its thread removes its build folder, then writes no more.
        prepared.host().fontCache().awaitStopped(CLOSE_WAIT_MILLIS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    streamThreads.shutdown();
    if (prepared.usable() && prepared.host().state().fresh()) {
      StateDirectory.deleteTree(prepared.host().state().root());
    }
  }
}
