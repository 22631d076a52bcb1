package dev.cinchmcp.backend.choice;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cinchmcp.backend.CodeRunner;
import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunListener;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.cinch.CinchApiRunner;
import dev.cinchmcp.testkit.FakeCinchApi;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A call that arrives while the Cinch runner is still being built waits for it; that wait counts
 * against the call's deadline (CINCH_TIMEOUT_MS), so a slow start never stretches it.
 */
class DeferredDeadlineTest {

  @RegisterExtension static final FakeCinchApi api = new FakeCinchApi();

  private static final Program PROGRAM = new Program("print(1)", Language.PYTHON);

  /** The runner's clock, moved by the test instead of waiting. */
  private final AtomicLong now = new AtomicLong();

  @Test
  void aCallThatWaitedPastItsDeadlineForTheBackendTimesOutWithoutBeingSent() throws Exception {
    api.answer(aResponse().withStatus(200).withBody("{}"));
    CompletableFuture<CodeRunner> building = new CompletableFuture<>();
    DeferredRunner deferred = new DeferredRunner("cinch", building, now::get);

    CompletableFuture<RunResult> call = deferred.run(PROGRAM, RunListener.NONE);
    // The backend takes longer to build than the call's whole timeout.
    CinchApiRunner runner = api.runner(Duration.ofMillis(200));
    now.addAndGet(Duration.ofMillis(400).toNanos()); // the call's whole timeout passes first
    building.complete(runner);

    ExecutionException failed =
        assertThrows(ExecutionException.class, () -> call.get(20, TimeUnit.SECONDS));
    RunFailure failure = assertInstanceOf(RunFailure.class, failed.getCause());
    assertEquals(RunFailure.Kind.TIMEOUT, failure.kind());
    api.wireMock().verify(0, anyRequestedFor(anyUrl()));
  }

  @Test
  void aCallThatWaitedABitKeepsTheRestOfItsTime() throws Exception {
    api.answer(
        aResponse()
            .withStatus(200)
            .withBody("{\"stdout\":\"1\\n\",\"stderr\":\"\",\"exitCode\":0,\"timedOut\":false}"));
    CompletableFuture<CodeRunner> building = new CompletableFuture<>();
    DeferredRunner deferred = new DeferredRunner("cinch", building, now::get);

    CompletableFuture<RunResult> call = deferred.run(PROGRAM, RunListener.NONE);
    now.addAndGet(Duration.ofMillis(100).toNanos()); // the call waits for its backend a while
    building.complete(api.runner(Duration.ofSeconds(20)));

    assertEquals("1\n", call.get(20, TimeUnit.SECONDS).stdout().text());
  }
}
