package dev.cinchmcp.backend.docker;

import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.SandboxEnding;
import dev.cinchmcp.backend.SandboxOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One program in one fresh container: create (with the walls of {@link ContainerSpec}), attach, ask
 * for the exit, start, send the code on stdin, drain the output, enforce the wall clock, and make
 * sure the container is gone afterwards, whatever happens.
 *
 * <p>The wall clock runs from the start. At the limit the container is killed and removed here;
 * {@code timeout} inside it kills it one second later whatever becomes of the server, and the
 * engine removes it ({@code AutoRemove}) once it has exited.
 */
final class ContainerRun {

  private static final Logger log = LoggerFactory.getLogger(ContainerRun.class);

  /** How long a kill-and-remove may take before the run gives up on it. */
  static final Duration REMOVE_LIMIT = Duration.ofSeconds(10);

  private final Engine engine;
  private final String name;
  private final Program program;
  private final DockerSettings settings;
  private final RuntimeChoice runtime;
  private final Map<String, String> labels;
  private final ExecutorService streams;
  private final Consumer<String> imageGone;
  private volatile String id;
  private volatile boolean cancelled;

  /**
   * The runner is closing: its kill ({@link #killWithin}) ends the container, and a removal from
   * this run's own thread (interrupted, cut off half-sent) could only get in the way of it.
   */
  private volatile boolean closing;

  private static final CompletableFuture<Void> NOTHING_TO_WAIT_FOR =
      CompletableFuture.completedFuture(null);

  private volatile EngineConnection attach;
  private volatile EngineHttp.Streaming wait;

  /** The container started ahead of time that runs the program, or null for a fresh one. */
  private final WaitingContainer waiting;

  /** Whether the waiting container's launcher said it has the program (its second mark). */
  private volatile boolean taken;

  /**
   * The waiting container ended before it took its program: nothing ran, and the caller runs it in
   * a fresh container, as without a pool.
   */
  static final class HandOverFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    HandOverFailed(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * @param labels the server's: they name the container and mark it as this server's
   * @param imageGone told the image's name when the engine no longer has it
   */
  ContainerRun(
      Program program,
      Engine engine,
      Labels labels,
      DockerSettings settings,
      RuntimeChoice runtime,
      ExecutorService streams,
      Consumer<String> imageGone) {
    this(program, engine, labels, settings, runtime, streams, imageGone, null);
  }

  /**
   * @param waiting a container started ahead of time for this program's language, which this run
   *     then owns (and removes), or null for a fresh container
   */
  ContainerRun(
      Program program,
      Engine engine,
      Labels labels,
      DockerSettings settings,
      RuntimeChoice runtime,
      ExecutorService streams,
      Consumer<String> imageGone,
      WaitingContainer waiting) {
    this.program = program;
    this.engine = engine;
    this.settings = settings;
    this.runtime = runtime;
    this.streams = streams;
    this.imageGone = imageGone;
    this.waiting = waiting;
    this.name = waiting == null ? labels.nextName() : waiting.name();
    this.labels = labels.labels();
  }

  /** Whether the program runs in a container started ahead of time. */
  boolean warm() {
    return waiting != null;
  }

  /** For a run that never starts (the runner closed): ends its waiting container, if any. */
  void abandon() {
    if (waiting != null) {
      waiting.kill();
    }
  }

  String name() {
    return name;
  }

  /**
   * Runs the program to its end, its time-out or {@link #cancel()}; the container is gone after.
   */
  RunResult execute() {
    if (waiting != null) {
      return executeWarm();
    }
    byte[] code = program.code().getBytes(StandardCharsets.UTF_8);
    String image = settings.image(program.language());
    boolean gone = false;
    try {
      id =
          engine.create(
              name,
              ContainerSpec.of(
                  settings,
                  image,
                  program.language(),
                  code.length,
                  runtime.runtime(),
                  runtime.gvisor(),
                  labels));
      if (cancelled) {
        throw new RunFailure(RunFailure.Reason.STOPPED_BEFORE_START, "The run was cancelled.");
      }
      attach = engine.attach(id);
      wait = engine.awaitExit(id);
      engine.start(id);
      long started = System.nanoTime();
      if (cancelled) {
        // Cancelled (or the runner closed) while it was being started: its kill may have come
        // before the start, when there was nothing to kill yet. (Should this process end first,
        // the program is never sent: the container reads an empty one, and ends at once.)
        killUninterrupted();
      }
      OutputFrames output = new OutputFrames(program.out());
      EngineConnection stream = attach;
      Future<?> drained;
      if (engine.address().kind() == EngineAddress.Kind.NPIPE) {
        send(stream, code); // a pipe serves one operation at a time: all input first
        drained = streams.submit(() -> output.drain(stream.input()));
      } else {
        drained = streams.submit(() -> output.drain(stream.input()));
        streams.submit(() -> send(stream, code));
      }
      EngineHttp.Streaming exit = wait;
      Future<Integer> status = streams.submit(() -> Engine.exitStatus(exit));
      SandboxEnding ending = awaitEnd(status, started);
      long durationMs = (System.nanoTime() - started) / 1_000_000;
      gone |= removeIfUnfinished(ending);
      awaitOutput(drained);
      return result(ending, status, output, durationMs);
    } catch (EngineError e) {
      throw failure(e);
    } catch (IOException e) {
      throw engineFailed("at " + engine.address().uri() + " could not run the program", e);
    } finally {
      closeStreams();
      if (!gone && id != null && !closing) {
        // The engine removes a container that exited (AutoRemove), but a removal can fail; this
        // one ends only once it is gone (or given up on), and covers a start that failed too.
        removeQuietly();
      }
    }
  }

  /**
   * {@link #execute()} in the container started ahead of time: the program goes down its open
   * attach stream, and the wall clock runs from there. Its answer comes before the container's
   * removal, which is left to a stream thread (the engine removes it anyway, {@code AutoRemove}).
   * Throws {@link HandOverFailed} when the container turns out to be gone before it took the
   * program.
   */
  private RunResult executeWarm() {
    byte[] code = program.code().getBytes(StandardCharsets.UTF_8);
    id = waiting.id();
    attach = waiting.attach();
    wait = waiting.exitWait();
    boolean gone = false;
    try {
      if (cancelled) {
        throw new RunFailure(RunFailure.Reason.STOPPED_BEFORE_START, "The run was cancelled.");
      }
      long started = System.nanoTime();
      String token = WaitingLaunchers.newToken();
      try {
        waiting.handOver(code, token);
      } catch (IOException e) {
        throw new HandOverFailed(e.getMessage());
      }
      if (cancelled) {
        killUninterrupted(); // its kill may have come before the hand-over
      }
      OutputFrames output = new OutputFrames(program.out());
      // The exit status: the launcher's end marks when they come (the program has ended), else
      // the engine's, which comes only once it has taken the container down (tens of ms later).
      CompletableFuture<Integer> status = new CompletableFuture<>();
      Future<?> drained =
          streams.submit(
              () -> {
                taken = output.drainMarked(waiting.output(), WaitingLaunchers.endMarkPrefix(token));
                if (output.endStatus() >= 0) {
                  status.complete(output.endStatus());
                }
              });
      EngineHttp.Streaming exit = wait;
      streams.execute(
          () -> {
            try {
              status.complete(Engine.exitStatus(exit));
            } catch (IOException | RuntimeException e) {
              status.completeExceptionally(e);
            }
          });
      SandboxEnding ending;
      try {
        ending = awaitEnd(status, started);
      } catch (RunFailure e) {
        awaitOutput(drained);
        if (!taken && !cancelled) {
          throw new HandOverFailed(e.getMessage());
        }
        throw e;
      }
      long durationMs = (System.nanoTime() - started) / 1_000_000;
      gone |= removeIfUnfinished(ending);
      awaitOutput(drained);
      if (!taken && ending == SandboxEnding.EXITED) {
        throw new HandOverFailed("container " + name + " ended before it took its program");
      }
      return result(ending, status, output, durationMs);
    } finally {
      closeStreams();
      if (!gone && !closing) {
        removeInBackground();
      }
    }
  }

  private void removeInBackground() {
    try {
      streams.execute(this::removeQuietly);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // the runner is closing: its kills, AutoRemove and the next start's sweep cover it
    }
  }

  private RunResult result(
      SandboxEnding ending, Future<Integer> status, OutputFrames output, long durationMs) {
    if (ending != SandboxEnding.EXITED) {
      return ending.unfinished(output, settings.wallClock(), durationMs, DockerRunner.NAME);
    }
    int exitCode = done(status);
    String note = null;
    if (exitCode == SandboxEnding.KILLED) {
      note =
          "[sandbox] killed: the program was stopped with SIGKILL, most likely because it used more"
              + " than its "
              + settings.memoryMebibytes()
              + " MB of memory";
    }
    return SandboxEnding.exited(output, exitCode, note, durationMs, DockerRunner.NAME);
  }

  private SandboxEnding awaitEnd(Future<Integer> status, long startedNanos) {
    long limit = startedNanos + settings.wallClock().toNanos();
    try {
      long left = limit - System.nanoTime();
      status.get(Math.max(0, left), TimeUnit.NANOSECONDS);
      if (cancelled) {
        return SandboxEnding.CANCELLED;
      }
      // On a starved machine the backstop inside may have ended it first (SIGKILL, after the
      // grace): that is a time-out too.
      boolean backstop = done(status) == SandboxEnding.KILLED && System.nanoTime() >= limit;
      return backstop ? SandboxEnding.TIMED_OUT : SandboxEnding.EXITED;
    } catch (TimeoutException e) {
      return cancelled ? SandboxEnding.CANCELLED : SandboxEnding.TIMED_OUT;
    } catch (ExecutionException e) {
      if (cancelled) {
        return SandboxEnding.CANCELLED;
      }
      throw engineFailed("stopped answering while the program ran", e.getCause());
    } catch (InterruptedException e) {
      // Nothing interrupts a run but a JVM that ends; the container is left to its kill.
      Thread.currentThread().interrupt();
      closing = true;
      cancelled = true;
      return SandboxEnding.CANCELLED;
    }
  }

  /** The status of a future that has completed normally. */
  private static int done(Future<Integer> status) {
    try {
      return status.get();
    } catch (ExecutionException | InterruptedException e) {
      throw new IllegalStateException("the exit status is not there", e);
    }
  }

  private static void send(EngineConnection stream, byte[] code) {
    try {
      stream.output().write(code);
      stream.output().flush();
      stream.shutdownOutput();
    } catch (IOException e) {
      // The container ended (or was killed) before it read its code; its status says so.
    }
  }

  /**
   * Kills and removes the container now; the run then ends. Safe from any thread. Nothing to do
   * once the runner's own kill is under way: a stop on a signal cancels every call as it kills.
   */
  void cancel() {
    if (closing) {
      return;
    }
    cancelled = true;
    if (id != null) {
      removeQuietly();
    }
    closeStreams();
  }

  /**
   * Kills the container (the engine removes it then, {@code AutoRemove}), waiting at most {@code
   * limit} for the answer. For a runner that closes: the engine carries a kill out even if this
   * server exits once the request is sent, where a forced removal of a gVisor container was not
   * (measured: with the server gone 100 ms after a DELETE, runsc containers stayed until their
   * backstop).
   *
   * @return settled once the engine has answered (or the kill failed)
   */
  CompletableFuture<Void> killWithin(Duration limit, ExecutorService executor) {
    closing = true;
    cancelled = true;
    String container = id;
    if (container == null) {
      // Not created yet: its run sees the flags and never starts it (a sweep removes it later).
      closeStreams();
      return NOTHING_TO_WAIT_FOR;
    }
    CompletableFuture<Void> answered =
        CompletableFuture.runAsync(
            () -> {
              try {
                engine.kill(container, limit);
              } catch (IOException e) {
                log.debug("Killing container {} failed: {}", name, e.toString());
              }
            },
            executor);
    answered.whenComplete((ignored, error) -> closeStreams());
    return answered;
  }

  /**
   * For a stop on a signal, on the stopping thread: marks the run killed and writes the container's
   * forced removal without waiting for the answer (the engine kills and removes it all the same).
   * No thread, no lambda: a stop runs this once, cold, on a machine the containers may be keeping
   * busy.
   *
   * <p>Nothing is waited for, not even a start under way. A container whose start the engine had
   * not begun is removed before it runs. One the engine starts all the same gets no program: the
   * run sends it only once the start is answered, and, if it was killed meanwhile, only after its
   * own kill has been answered, long after this process has ended. Its stdin closes as this process
   * ends, it reads an empty program and ends by itself (measured with runsc: 0.6-0.9 s after its
   * start). A container whose create was still under way is unknown here; it stays created, with
   * nothing running in it, until the next server's sweep.
   */
  void sendRemoveNow() {
    closing = true;
    cancelled = true;
    String container = id;
    if (container == null) {
      return; // not created yet: its run sees the flags and never starts it
    }
    try {
      engine.sendRemove(container);
    } catch (IOException e) {
      log.debug("Removing container {} failed: {}", name, e.toString());
    }
  }

  /** Kills the container even from an interrupted thread. */
  private void killUninterrupted() {
    boolean interrupted = Thread.interrupted();
    try {
      engine.kill(id, REMOVE_LIMIT);
    } catch (IOException e) {
      log.debug("Killing container {} failed: {}", name, e.toString());
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * A run that did not end by itself (killed at its limit, cancelled) is removed at once, unless
   * the runner is closing (then its close removes it); says whether it did not end by itself, and
   * so is gone for this run.
   */
  private boolean removeIfUnfinished(SandboxEnding ending) {
    if (ending == SandboxEnding.EXITED) {
      return false;
    }
    if (!closing) {
      removeNow();
    }
    return true;
  }

  private void removeNow() {
    try {
      engine.remove(id, REMOVE_LIMIT);
    } catch (IOException e) {
      log.warn("Container {} could not be removed: {}", name, e.toString());
    }
  }

  private void removeQuietly() {
    try {
      engine.remove(id, REMOVE_LIMIT);
    } catch (IOException e) {
      log.debug("Container {} could not be removed: {}", name, e.getMessage());
    }
  }

  private void closeStreams() {
    EngineConnection a = attach;
    if (a != null) {
      a.close();
    }
    EngineHttp.Streaming w = wait;
    if (w != null) {
      w.close();
    }
  }

  /** The engine failed ({@code what}) and said {@code cause}: it may not be running. */
  private static RunFailure engineFailed(String what, Throwable cause) {
    return new RunFailure(
        RunFailure.Reason.SANDBOX_FAILED,
        "The container engine "
            + what
            + " ("
            + cause.getMessage()
            + "). Check that the engine is running (docker info), then try again.");
  }

  private RunFailure failure(EngineError e) {
    String image = settings.image(program.language());
    String said = e.engineMessage().toLowerCase(java.util.Locale.ROOT);
    if (e.status() == 404 && said.contains("image")) {
      imageGone.accept(image); // removed since it was looked for: the next run looks again
      return new RunFailure(
          RunFailure.Reason.IMAGE_GONE,
          "The container engine has no image "
              + image
              + " any more ("
              + e.engineMessage()
              + "). Nothing was run. Try again: the next run pulls it (or tell the user to run"
              + " docker pull "
              + image
              + ").");
    }
    if (said.contains("executable file not found") || said.contains("no such file or directory")) {
      return new RunFailure(
          RunFailure.Reason.IMAGE_UNUSABLE,
          "The image "
              + image
              + " cannot run programs here ("
              + e.engineMessage()
              + "): it needs "
              + (program.language() == dev.cinchmcp.backend.Language.PYTHON ? "python3" : "node")
              + " and timeout (coreutils or busybox) on its PATH. Nothing was run. Tell the user to"
              + " set "
              + (program.language() == dev.cinchmcp.backend.Language.PYTHON
                  ? "CINCH_DOCKER_PYTHON_IMAGE"
                  : "CINCH_DOCKER_NODE_IMAGE")
              + " to such an image, e.g. the default.");
    }
    return new RunFailure(
        RunFailure.Reason.ENGINE_REFUSED,
        "The container engine refused the run ("
            + e.getMessage()
            + "). Nothing was run. Tell the user; --check shows the engine's set-up.");
  }

  private static void awaitOutput(Future<?> reader) {
    SandboxOutput.awaitReader(reader, log, "Output reader");
  }
}
