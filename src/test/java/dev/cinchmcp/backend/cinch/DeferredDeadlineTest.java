package dev.cinchmcp.backend.cinch;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cinchmcp.backend.CodeRunner;
import dev.cinchmcp.backend.DeferredRunner;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.testkit.Await;
import dev.cinchmcp.testkit.FakeCinchApi;
import dev.cinchmcp.testkit.Runs;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A call that arrives while the Cinch runner is still being built waits for it; that wait counts
 * against the call's deadline (CINCH_TIMEOUT_MS), so a slow start never stretches it.
 */
class DeferredDeadlineTest {

  @RegisterExtension static final FakeCinchApi api = new FakeCinchApi();

  @Test
  void aCallThatWaitedPastItsDeadlineForTheBackendTimesOutWithoutBeingSent() throws Exception {
    api.answer(aResponse().withStatus(200).withBody("{}"));
    CompletableFuture<CodeRunner> building = new CompletableFuture<>();
    DeferredRunner deferred = new DeferredRunner("cinch", building);

    CompletableFuture<RunResult> call = deferred.run(Runs.python("print(1)"), new Runs.Recorder());
    // The backend takes longer to build than the call's whole timeout.
    CinchApiRunner runner = api.runner(Duration.ofMillis(200));
    Await.timePasses(Duration.ofMillis(400), "the call's whole timeout passes first");
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
    DeferredRunner deferred = new DeferredRunner("cinch", building);

    CompletableFuture<RunResult> call = deferred.run(Runs.python("print(1)"), new Runs.Recorder());
    Await.timePasses(Duration.ofMillis(100), "the call waits for its backend a while");
    building.complete(api.runner(Duration.ofSeconds(20)));

    assertEquals("1\n", call.get(20, TimeUnit.SECONDS).stdout().text());
  }
}
