package dev.cinchmcp.backend.cinch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunListener;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.testkit.CinchRunners;
import dev.cinchmcp.testkit.StalledApi;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Every call is answered at its deadline, however slowly the API sends and however many other
 * stalled calls the same HTTP client is busy with: a blocked body read never delays another call.
 */
class DeadlineTest {

  private static final Duration TIMEOUT = Duration.ofMillis(1500);

  /**
   * Not a speed target: the bound is the deadline plus a wide margin for a loaded machine; the bug
   * it catches answered at twice the deadline.
   */
  private static final long LATEST_MS = TIMEOUT.toMillis() + 1200;

  @Test
  void stalledAnswersOfEveryKindAreAnsweredAtTheirDeadlineEvenAfterManyOthers() throws Exception {
    try (CinchRunners runners = new CinchRunners();
        StalledApi stalled = new StalledApi()) {
      CinchApiRunner runner = runners.runner(stalled.runUri(), TIMEOUT);
      // First a run of hostile answers on the same client, all stalled at once.
      List<CompletableFuture<RunResult>> warmUp = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        for (String mode : List.of("trickle", "headers", "silent")) {
          warmUp.add(runner.run(Runs.python(mode), RunListener.NONE));
        }
      }
      for (CompletableFuture<RunResult> f : warmUp) {
        assertTimedOut(f, System.nanoTime());
      }
      // Then three stalled calls at once, once more.
      for (int round = 0; round < 2; round++) {
        long start = System.nanoTime();
        List<CompletableFuture<RunResult>> calls = new ArrayList<>();
        for (String mode : List.of("trickle", "headers", "silent")) {
          calls.add(runner.run(Runs.python(mode), RunListener.NONE));
        }
        for (CompletableFuture<RunResult> f : calls) {
          assertTimedOut(f, start);
        }
      }
    }
  }

  @Test
  void anAnswerThatCannotBeDeliveredNeverHoldsUpAnotherCallsDeadline() throws Exception {
    // The first call's answer blocks on its way up (as a write to a stdout nobody reads does);
    // the second call, stalled after its headers, must still end at its own deadline.
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    try (CinchRunners runners = new CinchRunners();
        StalledApi stalled = new StalledApi()) {
      CinchApiRunner runner = runners.runner(stalled.runUri(), TIMEOUT);
      long start = System.nanoTime();
      CompletableFuture<RunResult> blocked = runner.run(Runs.python("headers"), RunListener.NONE);
      blocked.whenComplete(
          (r, e) -> {
            try {
              release.await();
            } catch (InterruptedException interrupted) {
              Thread.currentThread().interrupt();
            }
          });
      CompletableFuture<RunResult> other = runner.run(Runs.python("headers"), RunListener.NONE);
      assertTimedOut(other, start);
    } finally {
      release.countDown();
    }
  }

  private static void assertTimedOut(CompletableFuture<RunResult> call, long startNanos)
      throws Exception {
    try {
      call.get(20, TimeUnit.SECONDS);
      throw new AssertionError("a stalled call succeeded");
    } catch (ExecutionException e) {
      RunFailure failure = (RunFailure) e.getCause();
      assertEquals(RunFailure.Kind.TIMEOUT, failure.kind(), failure.getMessage());
    }
    long millis = (System.nanoTime() - startNanos) / 1_000_000;
    assertTrue(millis <= LATEST_MS, "answered after " + millis + " ms, deadline " + TIMEOUT);
  }
}
