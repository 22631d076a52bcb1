package dev.cinchmcp.backend.local;

import static dev.cinchmcp.testkit.LocalRunners.await;
import static dev.cinchmcp.testkit.LocalRunners.python;
import static dev.cinchmcp.testkit.Requires.Need.GVISOR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.testkit.Await;
import dev.cinchmcp.testkit.Dependency;
import dev.cinchmcp.testkit.LocalRunners;
import dev.cinchmcp.testkit.Requires;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cancelling a future kills its sandbox promptly, or keeps a queued one from ever starting (cold
 * sandboxes, counted by runsc's list; LocalSandboxPoolTest cancels a warm one).
 */
@Requires(GVISOR)
class LocalSandboxCancelTest {

  @TempDir Path state;

  @Test
  void cancellingKillsTheSandboxPromptly() throws Exception {
    try (LocalSandboxRunner runner = oneAtATime(state)) {
      Runsc runsc = runscOf(runner);
      CompletableFuture<RunResult> running = python(runner, "import time\ntime.sleep(60)");
      CompletableFuture<RunResult> queued =
          python(runner, "open('/tmp/x', 'w')\nimport time\ntime.sleep(60)");
      List<String> ids = waitForContainers(runsc, 1);
      assertEquals(1, ids.size(), "one sandbox at once; the second waits: " + ids);

      assertTrue(queued.cancel(true));
      assertTrue(running.cancel(true));
      // The program sleeps 60 s: its sandbox going well before that was the cancel's kill, not
      // the program's end.
      Await.until(
          () -> runsc.list().isEmpty() && LocalRunners.ownCgroups().isEmpty(),
          Duration.ofSeconds(30),
          "the cancelled run's sandbox and cgroup to go");
      assertTrue(running.isCancelled() && queued.isCancelled());
      // The queued run never started; the slot is free again for the next one.
      RunResult next = await(python(runner, "print('next')"));
      assertEquals("next\n", next.stdout().text());
      LocalRunners.awaitNothingLeft(runner);
    }
  }

  @Test
  void closingTheRunnerKillsItsSandboxesAndFailsTheirFutures() throws Exception {
    LocalSandboxRunner runner = oneAtATime(state.resolve("close"));
    Runsc runsc = runscOf(runner);
    CompletableFuture<RunResult> running = python(runner, "import time\ntime.sleep(60)");
    CompletableFuture<RunResult> queued = python(runner, "print(1)");
    waitForContainers(runsc, 1);
    runner.close();
    for (CompletableFuture<RunResult> future : List.of(running, queued)) {
      ExecutionException e =
          assertThrows(ExecutionException.class, () -> future.get(5, TimeUnit.SECONDS));
      assertEquals(RunFailure.Kind.SANDBOX_UNAVAILABLE, ((RunFailure) e.getCause()).kind());
    }
    Await.until(
        () -> runsc.list().isEmpty() && LocalRunners.ownCgroups().isEmpty(),
        Duration.ofSeconds(30),
        "the sandbox and its cgroup to go after close");
    // close() returns only once the sandboxes are cleaned up.
    LocalRunners.assertNothingLeft(runner);
  }

  private static Runsc runscOf(LocalSandboxRunner runner) {
    return new Runsc(
        Dependency.runsc(),
        runner.stateDir().resolve("runsc"),
        runner.settings().runscEnvironment());
  }

  /** A runner of cold sandboxes, one at a time: a second run waits for the first. */
  private static LocalSandboxRunner oneAtATime(Path stateDir) {
    return LocalRunners.usable(
        LocalSandboxRunner.start(
            LocalSandboxSettings.defaults()
                .withStateDir(stateDir)
                .withMaxConcurrent(1)
                .withPoolSize(0)));
  }

  /**
   * Waits until {@code count} sandboxes run: the runs were sent at once, so by then one too many
   * would have been made (and listed) too.
   */
  private static List<String> waitForContainers(Runsc runsc, int count) {
    Await.until(
        () ->
            runsc.list().size() >= count
                && runsc.list().stream().allMatch(id -> running(runsc, id)),
        Duration.ofSeconds(10),
        count + " sandbox(es) running");
    return runsc.list();
  }

  private static boolean running(Runsc runsc, String id) {
    try {
      Process state = runsc.processBuilder(runsc.command("state", id)).start();
      String out = new String(state.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      return state.waitFor() == 0 && out.matches("(?s).*\"status\":\\s*\"running\".*");
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
