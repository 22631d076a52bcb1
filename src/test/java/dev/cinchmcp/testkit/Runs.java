package dev.cinchmcp.testkit;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunListener;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.cinch.CinchApiRunner;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Running a program on a Cinch runner in a test: its result, or its failure, within a bound. */
public final class Runs {

  /** How long a test waits for a run's future at most; far above every configured timeout. */
  public static final Duration TEST_WAIT = Duration.ofSeconds(20);

  private Runs() {}

  /** A listener that keeps what it is told. */
  public static final class Recorder implements RunListener {
    public final List<Integer> sent = new CopyOnWriteArrayList<>();
    public final List<String> logs = new CopyOnWriteArrayList<>();

    @Override
    public void sent(int attempt) {
      sent.add(attempt);
    }

    @Override
    public void log(Level level, String message) {
      logs.add(level + " " + message);
    }
  }

  public static Program python(String code) {
    return new Program(code, Language.PYTHON);
  }

  public static RunResult runOk(CinchApiRunner runner, Program program) {
    try {
      return runner.run(program, RunListener.NONE).get(TEST_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new AssertionError(
          "expected a result but the run failed: " + e.getCause(), e.getCause());
    } catch (InterruptedException | TimeoutException e) {
      throw new AssertionError("the run did not complete", e);
    }
  }

  public static RunFailure runFails(CinchApiRunner runner, Program program, RunListener listener) {
    CompletableFuture<RunResult> future = runner.run(program, listener);
    try {
      RunResult result = future.get(TEST_WAIT.toMillis(), TimeUnit.MILLISECONDS);
      return fail("expected a failure but got " + result);
    } catch (ExecutionException e) {
      return assertInstanceOf(RunFailure.class, e.getCause());
    } catch (InterruptedException | TimeoutException e) {
      throw new AssertionError("the run did not complete", e);
    }
  }

  public static RunFailure runFails(CinchApiRunner runner) {
    return runFails(runner, python("print(1)"), RunListener.NONE);
  }
}
