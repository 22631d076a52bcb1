package dev.cinchmcp.backend.cinch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunListener;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.testkit.CinchRunners;
import dev.cinchmcp.testkit.Runs;
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
   * Here the timing is what is tested (a deadline firing), so it keeps a bound; but it only catches
   * a call left hanging: the deadline plus several seconds, however loaded the machine.
   */
  private static final long LATEST_MS = TIMEOUT.toMillis() + 5_000;

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
    // No clock needed: until the end of this test the first answer stays blocked, so a second call
    // held up by it would never end.
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    try (CinchRunners runners = new CinchRunners();
        StalledApi stalled = new StalledApi()) {
      CinchApiRunner runner = runners.runner(stalled.runUri(), TIMEOUT);
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
      assertTimedOut(other);
    } finally {
      release.countDown();
    }
  }

  /** The call ends, and ends as a timeout (a hang fails it after 20 s). */
  private static void assertTimedOut(CompletableFuture<RunResult> call) throws Exception {
    try {
      call.get(20, TimeUnit.SECONDS);
      throw new AssertionError("a stalled call succeeded");
    } catch (ExecutionException e) {
      RunFailure failure = (RunFailure) e.getCause();
      assertEquals(RunFailure.Kind.TIMEOUT, failure.kind(), failure.getMessage());
    }
  }

  /** The call ends as a timeout no later than {@link #LATEST_MS} after {@code startNanos}. */
  private static void assertTimedOut(CompletableFuture<RunResult> call, long startNanos)
      throws Exception {
    assertTimedOut(call);
    long millis = (System.nanoTime() - startNanos) / 1_000_000;
    assertTrue(millis <= LATEST_MS, "answered after " + millis + " ms, deadline " + TIMEOUT);
  }
}
