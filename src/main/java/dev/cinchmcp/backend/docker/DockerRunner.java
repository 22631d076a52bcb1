package dev.cinchmcp.backend.docker;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cinchmcp.backend.CodeRunner;
import dev.cinchmcp.backend.DaemonThreads;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunListener;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.SandboxEnding;
import dev.cinchmcp.backend.SandboxFacts;
import dev.cinchmcp.backend.WarmPool;
import java.io.IOException;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs each program in a fresh container of a Docker-compatible engine ({@link EngineLocator}) with
 * the walls of {@link ContainerSpec}. {@link #start} reaches the engine at once, so the ready line
 * says which engine, runtime and limits hold; at most {@link DockerSettings.ContainersAtOnce} run
 * at once, and containers started ahead ({@link WaitingContainer}) take the start off a call.
 */
public final class DockerRunner implements CodeRunner, AutoCloseable {

  public static final String NAME = "docker";

  private static final Logger log = LoggerFactory.getLogger(DockerRunner.class);

  /**
   * How long a close waits for its kills' answers (gVisor: 50-150 ms); the engine carries out a
   * kill it has received even with the server gone (none left in 48 stops).
   */
  static final long CLOSE_WAIT_MILLIS = 100;

  private final ScheduledExecutorService timers;
  private final ExecutorService containers;
  private final ExecutorService streams;
  private final Set<ContainerRun> running = ConcurrentHashMap.newKeySet();
  // Set before the kills look at `running`; a run checks it after joining `running`.
  private volatile boolean closed;
  private final Set<CompletableFuture<RunResult>> pending = ConcurrentHashMap.newKeySet();
  private final ContainerRun.Parts parts;
  private final String problem;
  private final WarmPool<WaitingContainer> pool;
  private final String summary;
  private final SandboxFacts sandboxFacts;

  private DockerRunner(DockerSettings settings, int poolSize) {
    ScheduledThreadPoolExecutor timer =
        new ScheduledThreadPoolExecutor(1, DaemonThreads.named("cinchmcp-engine-timer"));
    timer.setRemoveOnCancelPolicy(true);
    this.timers = timer;
    this.streams = Executors.newCachedThreadPool(DaemonThreads.named("cinchmcp-engine-stream"));
    Engine connected = null;
    Images images = null;
    RuntimeChoice chosen = null;
    String engine = null;
    String languages = "Python and Node.js";
    boolean sharesKernel = false;
    String why;
    try {
      connected =
          EngineLocator.forThisMachine(settings.environment(), settings.osName()).connect(timers);
      JsonNode info = connected.info();
      JsonNode version = connected.versionInfo();
      String os = info.path("OperatingSystem").asText("");
      boolean ownVm = RuntimeChoice.ownVm(settings.linuxHost(), os);
      sharesKernel = !ownVm;
      Set<String> offered = new TreeSet<>();
      info.path("Runtimes").fieldNames().forEachRemaining(offered::add);
      String byDefault = info.path("DefaultRuntime").asText("");
      chosen = RuntimeChoice.of(settings.runtime(), offered, byDefault, ownVm);
      String product = version.path("Platform").path("Name").asText("");
      engine =
          (product.isBlank() ? "Docker Engine" : product) // Debian's dockerd names no platform
              + " "
              + version.path("Version").asText(info.path("ServerVersion").asText("?"))
              + " (API "
              + connected.version()
              + (os.isBlank() ? "" : ", " + os)
              + ") at "
              + connected.address();
      images = new Images(connected, streams);
      languages =
          "Python "
              + images.version(settings.pythonImage(), "PYTHON_VERSION")
              + " and Node.js "
              + images.version(settings.nodeImage(), "NODE_VERSION");
      why = chosen.problem();
    } catch (IOException e) {
      String at =
          connected == null ? "" : "the engine at " + connected.address().uri() + " failed: ";
      why = at + e.getMessage();
    }
    this.problem = why;
    DockerSettings.ContainersAtOnce atOnce =
        DockerSettings.ContainersAtOnce.of(
            SandboxFacts.MAX_CONCURRENT,
            settings.cpuShare(),
            Runtime.getRuntime().availableProcessors(),
            sharesKernel);
    this.containers =
        Executors.newFixedThreadPool(atOnce.count(), DaemonThreads.named("cinchmcp-engine"));
    this.parts =
        new ContainerRun.Parts(
            connected, Labels.ofThisProcess(), settings, chosen, streams, images);
    this.pool = poolSize > 0 && problem == null ? WaitingContainer.pool(poolSize, parts) : null;
    boolean gvisor = chosen != null && chosen.gvisor();
    String limits = settings.limits(gvisor);
    this.sandboxFacts =
        new SandboxFacts(
            problem == null ? languages : "Python and Node.js",
            limits,
            chosen == null ? "a container" : chosen.shortIsolation(),
            settings.packages(),
            settings.wallClock().toSeconds());
    this.summary =
        problem != null
            ? "backend docker: UNAVAILABLE, " + problem
            : "backend docker: "
                + Stream.of(
                        engine,
                        "isolation: " + chosen.isolation(),
                        "images " + settings.pythonImage() + " and " + settings.nodeImage(),
                        "limits held: " + limits,
                        atOnce.describe(),
                        WaitingContainer.describePool(poolSize, gvisor))
                    .filter(part -> !part.isEmpty())
                    .collect(Collectors.joining("; "));
  }

  /** A runner either way ({@link #usable()}); sweeps, then fills the pool, after {@code after}. */
  public static DockerRunner start(
      DockerSettings settings, int poolSize, CompletableFuture<?> after) {
    DockerRunner runner = new DockerRunner(settings, poolSize);
    if (runner.usable()) {
      after.thenRunAsync(
          () -> {
            int removed = runner.parts.labels().sweep(runner.parts.engine());
            if (removed > 0) {
              log.info("Removed {} container(s) left by servers that are gone", removed);
            }
            if (runner.pool != null) {
              runner.pool.fill();
            }
          },
          runner.streams);
    }
    return runner;
  }

  /** The first address where the user's tools would look that answers a ping (for {@code auto}). */
  public static Optional<String> engineAnswers(DockerSettings settings) {
    ScheduledThreadPoolExecutor timer =
        new ScheduledThreadPoolExecutor(1, DaemonThreads.named("cinchmcp-engine-ping"));
    try {
      return EngineLocator.forThisMachine(settings.environment(), settings.osName())
          .firstAnswering(timer)
          .map(EngineAddress::toString);
    } finally {
      timer.shutdownNow();
    }
  }

  @Override
  public String name() {
    return NAME;
  }

  public boolean usable() {
    return problem == null;
  }

  public String unavailableReason() {
    return problem;
  }

  public SandboxFacts sandboxFacts() {
    return sandboxFacts;
  }

  /** One line for the ready line and {@code --check}: the engine, the runtime, the limits. */
  public String summary() {
    return summary;
  }

  @Override
  public CompletableFuture<RunResult> run(Program program, RunListener listener) {
    RunListener events = listener == null ? RunListener.NONE : listener;
    if (!usable()) {
      return CompletableFuture.failedFuture(unavailable(problem));
    }
    CompletableFuture<RunResult> future = new CompletableFuture<>();
    pending.add(future);
    if (pool != null) {
      // From its arrival (it may wait for an image) to its answer, no start ahead competes with it.
      pool.callStarted();
    }
    AtomicReference<ContainerRun> current = new AtomicReference<>();
    // Made now: a stop on a signal cancels every call, and linking a lambda then would cost ms.
    Runnable cancel =
        () -> {
          ContainerRun run = current.get();
          if (run != null) {
            run.cancel();
          }
        };
    future.whenComplete(
        (result, error) -> {
          pending.remove(future);
          if (pool != null) {
            pool.callEnded();
          }
          if (error instanceof CancellationException) {
            streams.execute(cancel);
          }
        });
    String image = parts.settings().image(program.language());
    parts
        .images()
        .ensure(image, DockerSettings.imageSetting(program.language()), events)
        .whenComplete(
            (done, error) -> {
              Throwable cause = error instanceof CompletionException ? error.getCause() : error;
              if (cause != null) {
                future.completeExceptionally(
                    cause instanceof RunFailure failure ? failure : unavailable(cause.toString()));
                return;
              }
              try {
                containers.execute(() -> execute(program, current, future, events));
              } catch (RejectedExecutionException e) {
                future.completeExceptionally(
                    new RunFailure(
                        RunFailure.Reason.STOPPED_BEFORE_START,
                        "The docker runner is shutting down. Nothing was run."));
              }
            });
    return future;
  }

  /** In a container started ahead when the pool has one, else (or if it was gone) fresh. */
  private void execute(
      Program program,
      AtomicReference<ContainerRun> current,
      CompletableFuture<RunResult> future,
      RunListener events) {
    if (future.isDone()) {
      return; // cancelled while queued
    }
    WaitingContainer waiting =
        pool == null
            ? null
            : pool.take(program.language(), WaitingContainer.START_WAIT).orElse(null);
    ContainerRun next = new ContainerRun(program, parts, waiting);
    while (next != null) {
      ContainerRun run = next;
      next = null;
      current.set(run);
      if (future.isDone()) {
        run.cancel(); // cancelled meanwhile: the run stops before its program starts
      }
      running.add(run);
      if (closed) {
        // The runner closed after this run left the queue; its kills may have missed it.
        running.remove(run);
        run.abandon();
        future.completeExceptionally(
            new RunFailure(
                RunFailure.Reason.STOPPED_BEFORE_START,
                "The docker runner was shut down before the program started. Nothing was run."));
        return;
      }
      events.sent(1);
      String container = "Container " + run.name();
      events.log(
          RunListener.Level.DEBUG,
          container + (run.warm() ? " (started ahead of time)" : " started"));
      try {
        SandboxEnding.complete(
            future, run.execute(), events, container + " timed out and was removed");
      } catch (ContainerRun.HandOverFailed e) { // nothing ran: again, in a fresh container
        log.debug("A container started ahead could not take its program: {}", e.getMessage());
        next = new ContainerRun(program, parts, null);
      } catch (RuntimeException e) {
        future.completeExceptionally(
            SandboxEnding.failure(e, events, log, container, "The docker backend", "Try again."));
      } finally {
        running.remove(run);
      }
    }
  }

  private static RunFailure unavailable(String reason) {
    return new RunFailure(
        RunFailure.Reason.SANDBOX_UNAVAILABLE,
        "The docker backend is not available: " + reason + ". Nothing was run.");
  }

  /** A stop on a signal: each forced removal only written, here; no thread, class or lambda. */
  @Override
  public boolean stopNow() {
    closed = true; // before the removals look at `running`, as in close()
    boolean idle = running.isEmpty();
    for (ContainerRun run : running) { // a loop, not a lambda: a stop runs this cold
      run.sendRemoveNow();
    }
    if (pool != null) {
      pool.stopNow(); // waiting containers: their attach closed, their removal written
    }
    return idle;
  }

  /** Stops taking runs, kills every running container, fails every unfinished call. */
  @Override
  public void close() {
    // No interrupts: a run cut off in its create or start request could leave a container.
    closed = true;
    containers.shutdown();
    if (pool != null) {
      // A start under way is waited for, briefly: a create whose answer is lost leaves one.
      pool.closeLetStartFinish(WaitingContainer.CLOSE_WAIT);
    }
    CompletableFuture<?>[] kills =
        running.stream().map(run -> run.killWithin(streams)).toArray(CompletableFuture[]::new);
    for (CompletableFuture<RunResult> future : pending) {
      future.completeExceptionally(SandboxEnding.shutDownWhileRunning("docker runner"));
    }
    try {
      CompletableFuture.allOf(kills).get(CLOSE_WAIT_MILLIS, TimeUnit.MILLISECONDS);
    } catch (TimeoutException | ExecutionException e) {
      log.debug("Container kills unconfirmed at close ({}); backstops cover them", e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    streams.shutdown();
    timers.shutdown();
  }
}
