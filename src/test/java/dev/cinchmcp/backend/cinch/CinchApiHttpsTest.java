package dev.cinchmcp.backend.cinch;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static dev.cinchmcp.testkit.Runs.python;
import static dev.cinchmcp.testkit.Runs.runOk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.http.RequestMethod;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunListener;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.testkit.CinchRunners;
import dev.cinchmcp.testkit.FakeCinchApi;
import dev.cinchmcp.testkit.Runs;
import java.net.Socket;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The runner over TLS and HTTP/2, the way it talks to the real API, with the client's tasks on its
 * own threads ({@code CinchApiRunner.ITS_OWN_THREAD}): WireMock's HTTPS port (Jetty, with ALPN, so
 * the client gets HTTP/2). Sequential calls, 64 at once, a large answer and a deadline: none of
 * them may hang or mix up answers.
 */
class CinchApiHttpsTest {

  private static final String OK_RUN =
      "{\"stdout\":\"42\\n\",\"stderr\":\"\",\"exitCode\":0,\"timedOut\":false,\"durationMs\":5}";

  @RegisterExtension final FakeCinchApi api = new FakeCinchApi().https();

  private CinchApiRunner runner(Duration timeout) throws Exception {
    return api.runners()
        .runner(
            api.httpsRunUri(),
            timeout,
            FakeCinchApi.KEY,
            CinchApiRunner.newHttpClient(
                api.httpsRunUri(), CinchRunners.connect(timeout), trustingWireMock()));
  }

  @Test
  void callsOneAfterAnotherAndAllAtOnceOverHttp2() throws Exception {
    api.answer(aResponse().withHeader("Content-Type", "application/json").withBody(OK_RUN));
    CinchApiRunner runner = runner(Duration.ofSeconds(20));
    for (int i = 0; i < 20; i++) {
      assertEquals("42\n", runOk(runner, python("print(" + i + ")")).stdout().text());
    }
    List<CompletableFuture<RunResult>> all = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      all.add(runner.run(python("print(" + i + ")"), RunListener.NONE));
    }
    for (CompletableFuture<RunResult> f : all) {
      assertEquals("42\n", f.get(30, TimeUnit.SECONDS).stdout().text());
    }
    List<LoggedRequest> seen = api.wireMock().findAll(anyRequestedFor(anyUrl()));
    assertEquals(84, seen.size());
    assertTrue(
        seen.stream()
            .allMatch(
                r ->
                    r.getMethod().equals(RequestMethod.POST)
                        && r.getProtocol().startsWith("HTTP/2")),
        "every call went over HTTP/2: " + seen.get(0).getProtocol());
    runner.close();
  }

  @Test
  void aLargeAnswerIsReadAndCut() throws Exception {
    String big = "x".repeat(3_000_000);
    api.answer(
        aResponse()
            .withBody(
                "{\"stdout\":\""
                    + big
                    + "\",\"stderr\":\"\",\"exitCode\":0,\"timedOut\":false,\"durationMs\":5}"));
    CinchApiRunner runner = runner(Duration.ofSeconds(20));
    RunResult result = runOk(runner, python("print('x' * 3000000)"));
    assertEquals(3_000_000, result.stdout().originalLength());
    assertTrue(result.stdout().text().length() <= 20_000);
    runner.close();
  }

  @Test
  void aSilentApiEndsAtTheDeadline() throws Exception {
    // Its answer, when it comes, is a good run: a TIMEOUT shows the call ended at its deadline
    // rather than waiting for it.
    api.answer(aResponse().withBody(OK_RUN).withFixedDelay(10_000));
    CinchApiRunner runner = runner(Duration.ofMillis(800));
    RunFailure failure = Runs.runFails(runner);
    assertEquals(RunFailure.Kind.TIMEOUT, failure.kind(), failure.getMessage());
    assertTrue(failure.getMessage().contains("800 ms"), failure.getMessage());
    runner.close();
  }

  /** Trusts WireMock's self-signed certificate (and, for this test only, any other). */
  private static SSLContext trustingWireMock() throws Exception {
    TrustManager trustAll =
        new X509ExtendedTrustManager() {
          @Override
          public void checkClientTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public void checkServerTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public void checkClientTrusted(X509Certificate[] chain, String authType, Socket s) {}

          @Override
          public void checkServerTrusted(X509Certificate[] chain, String authType, Socket s) {}

          @Override
          public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine e) {}

          @Override
          public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine e) {}

          @Override
          public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
          }
        };
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(null, new TrustManager[] {trustAll}, null);
    return tls;
  }
}
