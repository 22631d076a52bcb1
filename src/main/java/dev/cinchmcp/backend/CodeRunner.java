package dev.cinchmcp.backend;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * The seam between the tool and whatever runs the code: the Cinch API today, a local gVisor sandbox
 * next. An implementation runs each program once, in a fresh sandbox, and never blocks the caller.
 *
 * <p>The future completes with a {@link RunResult} (whatever the exit code), or exceptionally with
 * a {@link RunFailure} when there is no result. Cancelling the future abandons the run: the backend
 * drops its request or kills its sandbox.
 */
public interface CodeRunner {

  /** The name shown in results and on the ready line, e.g. "cinch" or "local". */
  String name();

  /** Runs {@code program} exactly as given (its {@link Program#input()} is not looked at). */
  CompletableFuture<RunResult> run(Program program, RunListener listener);

  /**
   * Runs a call as the tool read it: a program with input, or one that may write files ({@link
   * FileHint}), goes under the launcher ({@link InputLauncher}), and its result is read back as the
   * program's own. Cancelling the future cancels the run.
   */
  default CompletableFuture<RunResult> runCall(Program program, RunListener listener) {
    InputLauncher.Launch launch = InputLauncher.prepare(program);
    CompletableFuture<RunResult> run = run(launch.program(), listener);
    if (launch.marker() == null) {
      return run;
    }
    CompletableFuture<RunResult> delivered = run.thenApply(launch::delivered);
    delivered.whenComplete(
        (result, error) -> {
          if (delivered.isCancelled()) {
            run.cancel(true);
          }
        });
    return delivered;
  }

  /**
   * Runs a call that has already waited {@code waited} before it reached this runner (for a backend
   * that was still being built). A runner with a deadline counts that wait against it, so the call
   * is still answered at its deadline; the default ignores it.
   */
  default CompletableFuture<RunResult> run(Program program, RunListener listener, Duration waited) {
    return run(program, listener);
  }

  /**
   * The server is about to end on a signal: end every run at once (kill its sandbox, drop its
   * request), without waiting for any clean-up, which the next start's housekeeping does. Returns
   * within milliseconds, and says whether the process may now end the ordinary way: false when
   * threads of this runner may still wait in native calls on what it just killed (a process, a
   * connection), which holds a JVM's exit up by some 300 ms. The default has nothing of its own to
   * end (cancelled calls end with their futures).
   */
  default boolean stopNow() {
    return true;
  }
}
