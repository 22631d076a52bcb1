package dev.cinchmcp.backend.docker;

import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.SandboxEnding;
import dev.cinchmcp.backend.SandboxOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One program in one container, fresh or started ahead of time ({@link WaitingContainer}): create
 * (with the walls of {@link ContainerSpec}), attach, ask for the exit, start (or hand the program
 * to the waiting launcher), send the code on stdin, drain the output, enforce the wall clock, and
 * make sure the container is gone afterwards, whatever happens.
 *
 * <p>The wall clock runs from the start (or the hand-over). At the limit the container is killed
 * and removed here; {@code timeout} inside it kills it one second later whatever becomes of the
 * server, and the engine removes it ({@code AutoRemove}) once it has exited.
 */
final class ContainerRun {

  private static final Logger log = LoggerFactory.getLogger(ContainerRun.class);

  /** What every run of a runner shares, fresh or started ahead. */
  record Parts(
      Engine engine,
      Labels labels,
      DockerSettings settings,
      RuntimeChoice runtime,
      ExecutorService streams,
      Images images) {}

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

  private final Program program;
  private final Parts parts;
  private final Engine engine;
  private final String name;

  /** The container started ahead of time that runs the program (this run then owns it), or null. */
  private final WaitingContainer waiting;

  private volatile String id;
  private volatile boolean cancelled;

  /**
   * The runner is closing: its kill ({@link #killWithin}) ends the container, and a removal from
   * this run's own thread (interrupted, cut off half-sent) could only get in the way of it.
   */
  private volatile boolean closing;

  private volatile Engine.Attached attached;

  /** Whether the waiting container's launcher said it has the program (its second mark). */
  private volatile boolean taken;

  ContainerRun(Program program, Parts parts, WaitingContainer waiting) {
    this.program = program;
    this.parts = parts;
    this.engine = parts.engine();
    this.waiting = waiting;
    this.name = waiting == null ? parts.labels().nextName() : waiting.name;
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
   * Runs the program to its end, its time-out or {@link #cancel()}; the container is gone after. In
   * a container started ahead, throws {@link HandOverFailed} when it turns out to be gone before it
   * took the program; its answer then comes before its removal, left to a stream thread.
   */
  RunResult execute() {
    byte[] code = program.code().getBytes(StandardCharsets.UTF_8);
    DockerSettings settings = parts.settings();
    boolean gone = false;
    try {
      if (waiting == null) {
        RuntimeChoice runtime = parts.runtime();
        id =
            engine.create(
                name,
                ContainerSpec.of(
                    settings,
                    settings.image(program.language()),
                    program.language(),
                    code.length,
                    runtime.runtime(),
                    runtime.gvisor(),
                    parts.labels().labels()));
      } else {
        id = waiting.id;
        attached = waiting.attached;
      }
      if (cancelled) {
        throw new RunFailure(RunFailure.Reason.STOPPED_BEFORE_START, "The run was cancelled.");
      }
      String token = null;
      if (waiting == null) {
        attached = engine.attachAndStart(id);
      }
      long started = System.nanoTime();
      if (waiting != null) {
        token = WaitingLaunchers.newToken();
        try {
          waiting.handOver(code, token);
        } catch (IOException e) {
          throw new HandOverFailed(e.getMessage());
        }
      }
      if (cancelled) {
        // Its kill may have come before the start, when there was nothing to kill yet. (Should
        // this process end first, the program is never sent: the container reads an empty one.)
        engine.killQuietly(id, name);
      }
      OutputFrames output = new OutputFrames(program.out());
      // The exit status: a waiting launcher's end marks when they come (the program has ended),
      // else the engine's, which comes only once it has taken the container down (tens of ms).
      CompletableFuture<Integer> status = new CompletableFuture<>();
      Future<?> drained =
          waiting == null ? sendAndDrain(code, output) : drainMarked(token, output, status);
      Engine.Attached exit = attached;
      parts
          .streams()
          .execute(
              () -> {
                try {
                  status.complete(exit.exitStatus());
                } catch (IOException | RuntimeException e) {
                  status.completeExceptionally(e);
                }
              });
      SandboxEnding ending;
      try {
        ending = awaitEnd(status, started);
      } catch (RunFailure e) {
        if (waiting != null) {
          awaitOutput(drained);
          if (!taken && !cancelled) {
            throw new HandOverFailed(e.getMessage());
          }
        }
        throw e;
      }
      long durationMs = (System.nanoTime() - started) / 1_000_000;
      gone = removeIfUnfinished(ending);
      awaitOutput(drained);
      if (waiting != null && !taken && ending == SandboxEnding.EXITED) {
        throw new HandOverFailed("container " + name + " ended before it took its program");
      }
      return result(ending, status, output, durationMs);
    } catch (EngineError e) {
      String image = settings.image(program.language());
      if (e.imageGone()) {
        parts.images().forget(image); // removed since it was looked for: the next run looks again
      }
      throw e.runFailure(image, program.language());
    } catch (IOException e) {
      throw EngineError.failed("at " + engine.address().uri() + " could not run the program", e);
    } finally {
      closeStreams();
      if (!gone && id != null && !closing) {
        // AutoRemove takes a container that exited, but a removal can fail; this one ends only
        // once it is gone (or given up on), and covers a start that failed too.
        if (waiting == null) {
          engine.removeQuietly(id, name);
        } else {
          engine.removeInBackground(id, name, parts.streams());
        }
      }
    }
  }

  private Future<?> sendAndDrain(byte[] code, OutputFrames output) {
    EngineConnection stream = attached.attach();
    ExecutorService streams = parts.streams();
    if (engine.address().kind() == EngineAddress.Kind.NPIPE) {
      send(stream, code); // a pipe serves one operation at a time: all input first
      return streams.submit(() -> output.drain(stream.input()));
    }
    Future<?> drained = streams.submit(() -> output.drain(stream.input()));
    streams.submit(() -> send(stream, code));
    return drained;
  }

  private Future<?> drainMarked(
      String token, OutputFrames output, CompletableFuture<Integer> status) {
    return parts
        .streams()
        .submit(
            () -> {
              taken = output.drainMarked(waiting.output(), WaitingLaunchers.endMarkPrefix(token));
              if (output.endStatus() >= 0) {
                status.complete(output.endStatus());
              }
            });
  }

  private RunResult result(
      SandboxEnding ending, Future<Integer> status, OutputFrames output, long durationMs) {
    DockerSettings settings = parts.settings();
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
    long limit = startedNanos + parts.settings().wallClock().toNanos();
    try {
      status.get(Math.max(0, limit - System.nanoTime()), TimeUnit.NANOSECONDS);
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
      throw EngineError.failed("stopped answering while the program ran", e.getCause());
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
      engine.removeQuietly(id, name);
    }
    closeStreams();
  }

  /**
   * Kills the container (the engine removes it then, {@code AutoRemove}), for a runner that closes:
   * the engine carries a kill out even if this server exits once the request is sent, where a
   * forced removal of a gVisor container was not (measured: with the server gone 100 ms after a
   * DELETE, runsc containers stayed until their backstop).
   *
   * @return settled once the engine has answered (or the kill failed)
   */
  CompletableFuture<Void> killWithin(ExecutorService executor) {
    closing = true;
    cancelled = true;
    String container = id;
    if (container == null) {
      // Not created yet: its run sees the flags and never starts it (a sweep removes it later).
      closeStreams();
      return CompletableFuture.completedFuture(null);
    }
    return CompletableFuture.runAsync(() -> engine.killQuietly(container, name), executor)
        .whenComplete((ignored, error) -> closeStreams());
  }

  /**
   * For a stop on a signal, on the stopping thread: marks the run killed and writes the container's
   * forced removal without waiting for the answer. No thread, no lambda: a stop runs this once,
   * cold, on a machine the containers may be keeping busy.
   *
   * <p>A container whose start the engine had not begun is removed before it runs. One it starts
   * all the same gets no program (the run sends it only once the start is answered): its stdin
   * closes as this process ends, it reads an empty program and ends by itself (runsc: 0.6-0.9 s
   * after its start). One whose create was still under way stays, created, until the next sweep.
   */
  void sendRemoveNow() {
    closing = true;
    cancelled = true;
    String container = id;
    if (container != null) { // else not created yet: its run sees the flags and never starts it
      engine.sendRemoveQuietly(container, name);
    }
  }

  /**
   * A run that did not end by itself (killed at its limit, cancelled) is removed at once, unless
   * the runner is closing (its close removes it); says whether it did not end by itself.
   */
  private boolean removeIfUnfinished(SandboxEnding ending) {
    if (ending == SandboxEnding.EXITED) {
      return false;
    }
    if (!closing) {
      try {
        engine.remove(id, Engine.REMOVE_LIMIT);
      } catch (IOException e) {
        log.warn("Container {} could not be removed: {}", name, e.toString());
      }
    }
    return true;
  }

  private void closeStreams() {
    Engine.Attached streams = attached;
    if (streams != null) {
      streams.close();
    }
  }

  private static void awaitOutput(Future<?> reader) {
    SandboxOutput.awaitReader(reader, log, "Output reader");
  }
}
