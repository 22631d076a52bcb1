package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunListener;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.SandboxEnding;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One call's way through the local backend once its turn comes: a sandbox started ahead when one
 * fits (its answer goes out before its clean-up, tens of ms), else a cold one, and a cold one when
 * the one taken died just before its hand-over. Cancelling the future kills its sandbox. A run
 * ended by a stop on a signal is not answered.
 */
record LocalCall(
    Program program,
    List<String> modules,
    CompletableFuture<RunResult> future,
    RunListener events) {

  private static final Logger log = LoggerFactory.getLogger(LocalCall.class);

  /**
   * What every call of one runner shares.
   *
   * @param ahead takes a sandbox started ahead, when one fits
   * @param running started and not yet cleaned up: what the runner's stop kills
   */
  record Shared(
      BiFunction<Language, List<String>, Optional<Sandbox>> ahead,
      Set<Sandbox> running,
      Function<Program, Sandbox> cold,
      BooleanSupplier stopping) {}

  void execute(Shared runner) {
    if (future.isDone()) {
      return; // cancelled while queued
    }
    Sandbox sandbox =
        runner
            .ahead()
            .apply(program.language(), modules)
            .map(taken -> taken.onResult(result -> answer(runner, result)))
            .orElseGet(() -> runner.cold().apply(program));
    try {
      RunResult result;
      try {
        result = runIn(sandbox, runner);
      } catch (Sandbox.HandOverFailed e) {
        if (runner.stopping().getAsBoolean()) {
          return;
        }
        // It died just before its program: nothing ran, so a cold start runs it, as without a pool.
        log.debug(
            "Waiting sandbox {} could not take its program: {}", sandbox.id(), e.getMessage());
        sandbox = runner.cold().apply(program);
        result = runIn(sandbox, runner);
      }
      if (!runner.stopping().getAsBoolean()) {
        SandboxEnding.complete(
            future, result, events, "Local sandbox " + sandbox.id() + " timed out and was killed");
      }
    } catch (RuntimeException e) {
      if (!runner.stopping().getAsBoolean()) {
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

  private void answer(Shared runner, RunResult result) {
    if (!runner.stopping().getAsBoolean()) {
      future.complete(result);
    }
  }

  private RunResult runIn(Sandbox sandbox, Shared runner) {
    runner.running().add(sandbox);
    if (future.isDone()) {
      sandbox.cancel(); // cancelled meanwhile: run() below kills and cleans up at once
    }
    future.whenComplete(
        (result, error) -> {
          if (error instanceof CancellationException) {
            sandbox.cancel();
          }
        });
    events.sent(1);
    events.log(RunListener.Level.DEBUG, "Local sandbox " + sandbox.id() + sandbox.startNote());
    try {
      return sandbox.run(program);
    } finally {
      runner.running().remove(sandbox);
    }
  }
}
