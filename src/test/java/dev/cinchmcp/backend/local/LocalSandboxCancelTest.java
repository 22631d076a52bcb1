package dev.cinchmcp.backend.local;

import static dev.cinchmcp.backend.local.Sandboxes.await;
import static dev.cinchmcp.backend.local.Sandboxes.python;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.RequiresGvisor;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunResult;
import java.nio.file.Path;
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
@RequiresGvisor
class LocalSandboxCancelTest {

  @TempDir Path state;

  @Test
  void cancellingKillsTheSandboxPromptly() throws Exception {
    try (LocalSandboxRunner runner =
        Sandboxes.usable(
            LocalSandboxRunner.start(
                LocalSandboxSettings.defaults()
                    .withStateDir(state)
                    .withMaxConcurrent(1)
                    .withPoolSize(0)))) {
      Runsc runsc = Sandboxes.runsc(runner);
      CompletableFuture<RunResult> running = python(runner, "import time\ntime.sleep(60)");
      CompletableFuture<RunResult> queued =
          python(runner, "open('/tmp/x', 'w')\nimport time\ntime.sleep(60)");
      List<String> ids = waitForContainers(runsc, 1);
      assertEquals(1, ids.size(), "one sandbox at once; the second waits: " + ids);

      assertTrue(queued.cancel(true));
      long cancelledAt = System.nanoTime();
      assertTrue(running.cancel(true));
      while (!runsc.list().isEmpty() || !Sandboxes.ownCgroups().isEmpty()) {
        assertTrue(
            System.nanoTime() - cancelledAt < 3_000_000_000L,
            "sandbox still there 3 s after cancel");
        Thread.sleep(50);
      }
      long goneMs = (System.nanoTime() - cancelledAt) / 1_000_000;
      // The queued run never started; the slot is free again for the next one.
      RunResult next = await(python(runner, "print('next')"));
      assertEquals("next\n", next.stdout().text());
      assertTrue(goneMs < 3_000, "gone after " + goneMs + " ms");
      Thread.sleep(200);
      Sandboxes.assertNothingLeft(runner);
    }
  }

  @Test
  void closingTheRunnerKillsItsSandboxesAndFailsTheirFutures() throws Exception {
    LocalSandboxRunner runner =
        Sandboxes.usable(
            LocalSandboxRunner.start(
                LocalSandboxSettings.defaults()
                    .withStateDir(state.resolve("close"))
                    .withMaxConcurrent(1)
                    .withPoolSize(0)));
    Runsc runsc = Sandboxes.runsc(runner);
    CompletableFuture<RunResult> running = python(runner, "import time\ntime.sleep(60)");
    CompletableFuture<RunResult> queued = python(runner, "print(1)");
    waitForContainers(runsc, 1);
    runner.close();
    for (CompletableFuture<RunResult> future : List.of(running, queued)) {
      ExecutionException e =
          assertThrows(ExecutionException.class, () -> future.get(5, TimeUnit.SECONDS));
      assertEquals(RunFailure.Kind.SANDBOX_UNAVAILABLE, ((RunFailure) e.getCause()).kind());
    }
    long deadline = System.nanoTime() + 3_000_000_000L;
    while (!runsc.list().isEmpty() || !Sandboxes.ownCgroups().isEmpty()) {
      assertTrue(System.nanoTime() < deadline, "sandbox still there 3 s after close");
      Thread.sleep(50);
    }
    // close() returns only once the sandboxes are cleaned up.
    Sandboxes.assertNothingLeft(runner);
  }

  private static List<String> waitForContainers(Runsc runsc, int count)
      throws InterruptedException {
    long deadline = System.nanoTime() + 10_000_000_000L;
    List<String> ids = runsc.list();
    while (ids.size() < count && System.nanoTime() < deadline) {
      Thread.sleep(50);
      ids = runsc.list();
    }
    Thread.sleep(300);
    return runsc.list();
  }
}
