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

/** One program in one container, fresh or started ahead; it is gone after, whatever happens. */
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

  /** The waiting container ended before it took its program: nothing ran; the caller goes cold. */
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
  private final WaitingContainer waiting; // owned by this run, or null
  private volatile String id;
  private volatile boolean cancelled;
  private volatile boolean closing; // the runner's kill ends the container: no removal from here
  private volatile Engine.Attached attached;
  private volatile boolean taken; // the waiting launcher's second mark came

  ContainerRun(Program program, Parts parts, WaitingContainer waiting) {
    this.program = program;
    this.parts = parts;
    this.engine = parts.engine();
    this.waiting = waiting;
    this.name = waiting == null ? parts.labels().nextName() : waiting.name;
  }

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

  /** Runs the program to its end, its time-out or {@link #cancel()}. */
  RunResult execute() {
    byte[] code = program.code().getBytes(StandardCharsets.UTF_8);
    boolean gone = false;
    try {
      id =
          waiting == null
              ? engine.create(name, ContainerSpec.of(parts, program.language(), code.length))
              : waiting.id;
      if (waiting != null) {
        attached = waiting.attached; // before a cancel: closeStreams() must close its connections
      }
      if (cancelled) {
        throw new RunFailure(RunFailure.Reason.STOPPED_BEFORE_START, "The run was cancelled.");
      }
      if (waiting == null) {
        attached = engine.attachAndStart(id, parts.streams());
      }
      long started = System.nanoTime();
      String token = waiting == null ? null : ContainerSpec.newToken();
      if (waiting != null) {
        try {
          waiting.handOver(code, token);
        } catch (IOException e) {
          throw new HandOverFailed(e.getMessage());
        }
      }
      if (cancelled) {
        engine.killQuietly(id, name, false); // its kill may have come before the start
      }
      OutputFrames output = new OutputFrames(program.out());
      // A waiting launcher's end mark gives the status tens of ms before the engine's does.
      CompletableFuture<Integer> status = attached.exit();
      Future<?> drained =
          waiting == null ? sendAndDrain(code, output) : drainMarked(token, output, status);
      SandboxEnding ending;
      try {
        ending = awaitEnd(status, started);
      } catch (RunFailure e) {
        if (waiting != null) {
          SandboxOutput.awaitReader(drained, log, "Output reader");
          if (!taken && !cancelled) {
            throw new HandOverFailed(e.getMessage());
          }
        }
        throw e;
      }
      long durationMs = (System.nanoTime() - started) / 1_000_000;
      gone = removeIfUnfinished(ending);
      SandboxOutput.awaitReader(drained, log, "Output reader");
      if (waiting != null && !taken && ending == SandboxEnding.EXITED) {
        throw new HandOverFailed("container " + name + " ended before it took its program");
      }
      return result(ending, status, output, durationMs);
    } catch (EngineError e) {
      String image = parts.settings().image(program.language());
      if (e.imageGone()) {
        parts.images().forget(image); // removed since it was looked for: the next run looks again
      }
      throw e.runFailure(image, program.language());
    } catch (IOException e) {
      throw EngineError.failed("at " + engine.address().uri() + " could not run the program", e);
    } finally {
      closeStreams();
      if (!gone && id != null && !closing) {
        // AutoRemove can fail, and a failed start needs removing too.
        if (waiting == null) {
          engine.removeQuietly(id, name);
        } else {
          engine.removeInBackground(id, name, parts.streams());
        }
      }
    }
  }

  private Future<?> sendAndDrain(byte[] code, OutputFrames output) {
    EngineHttp.Connection stream = attached.attach();
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
              taken =
                  output.drainMarked(attached.attach().input(), ContainerSpec.endMarkPrefix(token));
              if (output.endStatus() >= 0) {
                status.complete(output.endStatus());
              }
            });
  }

  private RunResult result(
      SandboxEnding ending,
      CompletableFuture<Integer> status,
      OutputFrames output,
      long durationMs) {
    DockerSettings settings = parts.settings();
    if (ending != SandboxEnding.EXITED) {
      return ending.unfinished(output, settings.wallClock(), durationMs, DockerRunner.NAME);
    }
    int exitCode = status.join(); // completed: the run EXITED
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

  private SandboxEnding awaitEnd(CompletableFuture<Integer> status, long startedNanos) {
    long limit = startedNanos + parts.settings().wallClock().toNanos();
    try {
      status.get(Math.max(0, limit - System.nanoTime()), TimeUnit.NANOSECONDS);
      if (cancelled) {
        return SandboxEnding.CANCELLED;
      }
      // On a starved machine the backstop inside may have killed it first: a time-out too.
      boolean backstop = status.join() == SandboxEnding.KILLED && System.nanoTime() >= limit;
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

  private static void send(EngineHttp.Connection stream, byte[] code) {
    try {
      stream.output().write(code);
      stream.shutdownOutput();
    } catch (IOException e) {
      // The container ended (or was killed) before it read its code; its status says so.
    }
  }

  /** Kills and removes the container now, from any thread, unless the runner is killing it. */
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
   * For a closing runner: a kill (AutoRemove removes it) is carried out even if the server exits
   * once it is sent; a forced removal of a gVisor container was not (runsc's stayed to the
   * backstop).
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
    return CompletableFuture.runAsync(() -> engine.killQuietly(container, name, false), executor)
        .whenComplete((ignored, error) -> closeStreams());
  }

  /**
   * A stop on a signal: the forced removal written, cold (no thread, no lambda); one the engine
   * starts all the same reads an empty program and exits (runsc: 0.6-0.9 s).
   */
  void sendRemoveNow() {
    closing = true;
    cancelled = true;
    String container = id;
    if (container != null) { // else not created yet: its run sees the flags and never starts it
      engine.killQuietly(container, name, true);
    }
  }

  /** Removes a run that did not end by itself, unless the runner is closing; whether it did not. */
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
}
