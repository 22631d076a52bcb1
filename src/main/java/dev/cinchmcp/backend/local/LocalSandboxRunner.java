package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.CodeRunner;
import dev.cinchmcp.backend.DaemonThreads;
import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunListener;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.SandboxEnding;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs each program in a fresh gVisor sandbox ({@link Sandbox}), at most maxConcurrent at once (the
 * rest queue). One started ahead ({@link DataSandboxes}) makes a Python call ~20 ms against ~280 ms
 * cold. The self-test ({@link GvisorProbe}) runs in the background; if it failed every call fails.
 */
public final class LocalSandboxRunner implements CodeRunner, AutoCloseable {

  public static final String NAME = "local";
  private static final Logger log = LoggerFactory.getLogger(LocalSandboxRunner.class);

  private static final long CLOSE_WAIT_MILLIS = 5_000;

  /** How long a stop waits for a runsc start under way (a few ms) to be out, to kill it. */
  private static final long START_WAIT_MILLIS = 100;

  private final LocalSandboxSettings settings;
  private final GvisorProbe.Prepared prepared;
  private final SandboxHost host; // as prepared (before the self-test measured it); null: unusable
  private final CompletableFuture<GvisorProbe.SelfTest> selfTest;
  private final ExecutorService sandboxes;
  private final ExecutorService streamThreads;

  private final Set<CompletableFuture<RunResult>> pending = ConcurrentHashMap.newKeySet();
  private final Set<Sandbox> running = ConcurrentHashMap.newKeySet();
  private final DataSandboxes ahead; // filled once the self-test passed

  private LocalSandboxRunner(LocalSandboxSettings settings, CompletableFuture<?> selfTestAfter) {
    this.settings = settings;
    this.streamThreads =
        Executors.newCachedThreadPool(DaemonThreads.named("cinchmcp-sandbox-stream"));
    this.sandboxes =
        Executors.newFixedThreadPool(
            settings.maxConcurrent(), DaemonThreads.named("cinchmcp-sandbox"));
    this.prepared = GvisorProbe.prepare(settings, streamThreads);
    this.host = prepared.host();
    if (host == null) {
      log.warn("Local gVisor sandbox unavailable: {}", prepared.unusableReason());
    }
    this.selfTest =
        host == null
            ? CompletableFuture.completedFuture(
                new GvisorProbe.SelfTest(prepared.unusableReason(), null))
            : GvisorProbe.selfTestAfter(selfTestAfter, prepared, running, sandboxes);
    SandboxRuntimes runtimes = host == null ? SandboxRuntimes.NONE : host.runtimes();
    this.ahead =
        new DataSandboxes(
            settings.poolSize(),
            settings.poolIdleLimit(),
            runtimes.languages(),
            runtimes.pythonDirs(),
            // asked once the self-test passed: its host has the measured overheads
            (language, modules) -> Sandbox.startAhead(language, modules, selfTest.join().host()),
            System::nanoTime);
    selfTest.thenAccept(
        test -> {
          if (test.failure() == null) {
            ahead.fill();
          }
        });
  }

  int dataWaiting() {
    return ahead.dataWaiting();
  }

  public int waiting(Language language) {
    return ahead.waiting(language);
  }

  boolean poolFull() {
    return ahead.full();
  }

  public static LocalSandboxRunner start(LocalSandboxSettings settings) {
    return start(settings, CompletableFuture.completedFuture(null));
  }

  /** The self-test waits for {@code after}: its CPU must not slow the answer to initialize. */
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

  /** Something missing, or the self-test failed; null when runs can happen. */
  public String unavailableReason() {
    GvisorProbe.SelfTest test = selfTest.getNow(null); // without a host, failed with the reason
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
    return host == null ? Optional.empty() : host.fontCache().file();
  }

  public HostPackages packages() {
    return prepared.packages();
  }

  /** Null when the backend is unavailable. */
  public EnforcedLimits limits() {
    return prepared.limits();
  }

  public LocalSandboxSettings settings() {
    return settings;
  }

  /** The state directory in use (the settings' one, or a fresh one if that was unsafe). */
  Path stateDir() {
    return host == null ? settings.stateDir() : host.state().root();
  }

  @Override
  public CompletableFuture<RunResult> run(Program program, RunListener listener) {
    RunListener events = listener == null ? RunListener.NONE : listener;
    if (host == null) {
      return CompletableFuture.failedFuture(SandboxExit.unavailable(prepared.unusableReason()));
    }
    if (host.runtimes().interpreter(program.language()).isEmpty()) {
      return CompletableFuture.failedFuture(SandboxExit.cannotRun(program.language()));
    }
    CompletableFuture<RunResult> future = new CompletableFuture<>();
    pending.add(future);
    // From now to its answer (it may wait for the self-test) no start ahead competes with it.
    List<String> modules = ahead.modulesOf(program);
    ahead.callStarted(modules);
    future.whenComplete(
        (result, error) -> {
          pending.remove(future);
          ahead.callEnded();
        });
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

  /** A sandbox started ahead (answered before its clean-up), else or if it died a cold one. */
  private void execute(
      Program program,
      List<String> modules,
      SandboxHost tested,
      CompletableFuture<RunResult> future,
      RunListener events) {
    if (future.isDone()) {
      return; // cancelled while queued
    }
    Sandbox sandbox =
        ahead
            .take(program.language(), modules)
            .map(taken -> taken.onResult(result -> answer(future, result)))
            .orElseGet(() -> Sandbox.cold(program.language(), tested));
    try {
      RunResult result;
      try {
        result = runIn(sandbox, program, future, events);
      } catch (Sandbox.HandOverFailed e) {
        if (stopping()) {
          return;
        }
        log.debug(
            "Waiting sandbox {} could not take its program: {}", sandbox.id(), e.getMessage());
        sandbox = Sandbox.cold(program.language(), tested);
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
    future.whenComplete( // cancelled or failed by a close: run() kills and cleans up
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
    if (host != null) {
      host.runsc().refuseStarts(); // no sandbox (a refill, say) and no delete from here on
    }
    // One sweep first: starting sandboxes take every core until dead (the kills below: 20-35 ms).
    boolean swept = killDescendants();
    boolean idle = killSandboxes() && !swept;
    // A runsc delete or start under way would outlive this process: once out, a sweep takes it.
    if (host != null) {
      host.runsc().awaitStarts(START_WAIT_MILLIS);
    }
    return !killDescendants() && idle; // a kill: processes still to be reaped
  }

  private boolean stopping() {
    return host != null && host.runsc().refusesStarts();
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
    // waiting sandboxes or the font scan killed: processes still to be reaped
    boolean killed = ahead.stopNow() | (host != null && host.fontCache().stop());
    return idle && !killed;
  }

  @Override
  public void close() {
    killSandboxes(); // the clean-up below runs its runsc deletes to their end
    ahead.close(); // what the waiting sandboxes left, removed
    for (CompletableFuture<RunResult> future : pending) {
      future.completeExceptionally(SandboxEnding.shutDownWhileRunning("local sandbox runner"));
    }
    try {
      if (!sandboxes.awaitTermination(CLOSE_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
        log.warn("Local sandboxes were still being cleaned up when the server ended");
      }
      if (host != null) { // its scan was killed above; its thread removes its build folder
        host.fontCache().awaitStopped(CLOSE_WAIT_MILLIS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    streamThreads.shutdown();
    if (host != null && host.state().fresh()) {
      StateDirectory.deleteTree(host.state().root());
    }
  }
}
