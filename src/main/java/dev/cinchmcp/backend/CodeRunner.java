package dev.cinchmcp.backend;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * What runs the code: each program once, in a fresh sandbox, never blocking the caller. The future
 * completes with a {@link RunResult} or a {@link RunFailure}; cancelling it abandons the run.
 */
public interface CodeRunner {

  String name();

  /** Runs {@code program} exactly as given (its {@link Program#input()} is not looked at). */
  CompletableFuture<RunResult> run(Program program, RunListener listener);

  /** Runs a call as the tool read it, under the {@link InputLauncher} when it needs one. */
  default CompletableFuture<RunResult> runCall(Program program, RunListener listener) {
    InputLauncher.Launch launch = InputLauncher.prepare(program);
    CompletableFuture<RunResult> run = run(launch.program(), listener);
    if (launch.marker() == null) {
      return run;
    }
    CompletableFuture<RunResult> delivered = run.thenApply(launch::delivered);
    delivered.handle((result, error) -> delivered.isCancelled() && run.cancel(true));
    return delivered;
  }

  /** A call that waited {@code waited} for the runner to be built; counted against a deadline. */
  default CompletableFuture<RunResult> run(Program program, RunListener listener, Duration waited) {
    return run(program, listener);
  }

  /**
   * On a signal: ends every run at once, leaving clean-up to the next start. False when threads may
   * still wait in native calls on what it killed (a JVM's exit then waits ~300 ms).
   */
  default boolean stopNow() {
    return true;
  }
}
