package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.CodeRunner;
import dev.cinchmcp.backend.DaemonThreads;
import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunListener;
import dev.cinchmcp.backend.RunResult;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs each program in a fresh gVisor sandbox on this machine (see {@link OciSpec} for what the
 * program can see, {@link CgroupLimits} for its memory, processes and CPU, {@link SandboxRun} for
 * one run's life).
 *
 * <p>At most {@link LocalSandboxSettings#maxConcurrent()} sandboxes run at once (4 by default); the
 * rest wait in a queue, and their time starts only when their sandbox does. Cancelling a returned
 * future kills its sandbox (or drops it from the queue).
 *
 * <p>If the start-up probe failed, every call fails with {@link
 * RunFailure.Kind#SANDBOX_UNAVAILABLE} and the probe's reason: code never runs outside gVisor.
 */
public final class LocalSandboxRunner implements CodeRunner, AutoCloseable {

  public static final String NAME = "local";
  private static final Logger log = LoggerFactory.getLogger(LocalSandboxRunner.class);

  private final LocalSandboxSettings settings;
  private final GvisorProbe.Outcome probe;
  private final ExecutorService sandboxes;
  private final ExecutorService streamThreads;

  /** Futures not yet complete, so that {@link #close()} can answer the queued ones. */
  private final Set<CompletableFuture<RunResult>> pending = ConcurrentHashMap.newKeySet();

  private LocalSandboxRunner(LocalSandboxSettings settings) {
    this.settings = settings;
    this.streamThreads =
        Executors.newCachedThreadPool(DaemonThreads.named("cinchmcp-sandbox-stream"));
    this.sandboxes =
        Executors.newFixedThreadPool(
            settings.maxConcurrent(), DaemonThreads.named("cinchmcp-sandbox"));
    this.probe = GvisorProbe.probe(settings, streamThreads);
    if (probe.usable()) {
      log.info(
          "Local gVisor sandbox ready: {} ({}, {} MB, {} processes, {} CPU, {} s, {} at once{})",
          probe.versions().describe(),
          probe.runsc().binary(),
          settings.memoryMebibytes(),
          settings.maxProcesses(),
          settings.cpuShare(),
          settings.wallClock().toSeconds(),
          settings.maxConcurrent(),
          probe.cgroups().available() ? "" : ", no cgroup limits");
    } else {
      log.warn("Local gVisor sandbox unavailable: {}", probe.reason());
    }
  }

  /** Probes gVisor (one short sandbox per language, ~0.5 s) and returns a runner either way. */
  public static LocalSandboxRunner start(LocalSandboxSettings settings) {
    return new LocalSandboxRunner(settings);
  }

  public static LocalSandboxRunner start() {
    return start(LocalSandboxSettings.defaults());
  }

  @Override
  public String name() {
    return NAME;
  }

  /** Whether runs can happen at all; {@link #unavailableReason()} says why not. */
  public boolean usable() {
    return probe.usable();
  }

  public String unavailableReason() {
    return probe.reason();
  }

  /** The interpreter versions inside the sandbox, for the tool description. */
  public RuntimeVersions versions() {
    return probe.versions();
  }

  public LocalSandboxSettings settings() {
    return settings;
  }

  @Override
  public CompletableFuture<RunResult> run(Program program, RunListener listener) {
    RunListener events = listener == null ? RunListener.NONE : listener;
    if (!probe.usable()) {
      return CompletableFuture.failedFuture(
          new RunFailure(
              RunFailure.Kind.SANDBOX_UNAVAILABLE,
              "The local gVisor sandbox is not available: "
                  + probe.reason()
                  + ". Nothing was run."));
    }
    if (probe.runtimes().interpreter(program.language()).isEmpty()) {
      return CompletableFuture.failedFuture(
          new RunFailure(
              RunFailure.Kind.SANDBOX_UNAVAILABLE,
              "The local sandbox cannot run "
                  + program.language().wireName()
                  + ": "
                  + SandboxRuntimes.missingMessage(program.language())
                  + ". Nothing was run."));
    }
    SandboxRun run =
        new SandboxRun(
            Housekeeping.nextRunId(),
            program,
            settings,
            probe.runsc(),
            probe.cgroups(),
            probe.runtimes(),
            streamThreads);
    CompletableFuture<RunResult> future = new CompletableFuture<>();
    // Cancelling the caller's future kills the sandbox (or, while queued, keeps it from starting).
    pending.add(future);
    future.whenComplete(
        (result, error) -> {
          pending.remove(future);
          if (error instanceof CancellationException) {
            run.cancel();
          }
        });
    try {
      sandboxes.execute(() -> execute(run, future, events));
    } catch (java.util.concurrent.RejectedExecutionException e) {
      future.completeExceptionally(
          new RunFailure(
              RunFailure.Kind.SANDBOX_UNAVAILABLE,
              "The local sandbox runner is shutting down. Nothing was run."));
    }
    return future;
  }

  private static void execute(
      SandboxRun run, CompletableFuture<RunResult> future, RunListener events) {
    if (future.isDone()) {
      return; // cancelled while queued
    }
    events.sent(1);
    events.log(RunListener.Level.DEBUG, "Local sandbox " + run.id() + " started");
    try {
      RunResult result = run.execute();
      if (result.timedOut()) {
        events.log(
            RunListener.Level.INFO, "Local sandbox " + run.id() + " timed out and was killed");
      }
      future.complete(result);
    } catch (RunFailure e) {
      events.log(RunListener.Level.ERROR, e.getMessage());
      future.completeExceptionally(e);
    } catch (RuntimeException e) {
      log.error("Local sandbox {} failed", run.id(), e);
      future.completeExceptionally(
          new RunFailure(
              RunFailure.Kind.SANDBOX_UNAVAILABLE,
              "The local sandbox failed unexpectedly ("
                  + e.getClass().getSimpleName()
                  + "). Try again, or use the cinch backend."));
    }
  }

  /**
   * Stops taking runs, kills running sandboxes (their threads are interrupted, which kills and
   * cleans up) and fails every unfinished future, queued or running.
   */
  @Override
  public void close() {
    sandboxes.shutdownNow();
    streamThreads.shutdown();
    for (CompletableFuture<RunResult> future : pending) {
      future.completeExceptionally(
          new RunFailure(
              RunFailure.Kind.SANDBOX_UNAVAILABLE,
              "The local sandbox runner was shut down before the program finished."));
    }
  }

  /** True when the language can run here (its interpreter was found and passed the self-test). */
  public boolean supports(Language language) {
    return probe.versions().supports(language);
  }
}
