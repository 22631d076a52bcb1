package dev.cinchmcp.backend.cinch;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.cinchmcp.testkit.Runs.python;
import static dev.cinchmcp.testkit.Runs.runFails;
import static dev.cinchmcp.testkit.Runs.runOk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunFailure.Kind;
import dev.cinchmcp.backend.RunListener;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.testkit.FakeCinchApi;
import dev.cinchmcp.testkit.Runs;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Every way the API can fail a call, against a real local WireMock server. */
class CinchApiRunnerFailureTest {

  private static final String OK_RUN =
      "{\"stdout\":\"4\",\"stderr\":\"\",\"exitCode\":0,\"timedOut\":false,\"durationMs\":287}";
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  @RegisterExtension static final FakeCinchApi api = new FakeCinchApi();

  /** An error body in each shape the API might use, all carrying the same sentence. */
  enum Shape {
    JSON_ERROR("application/json", "{\"error\":\"%s\"}"),
    JSON_MESSAGE("application/json", "{\"status\":\"failed\",\"message\":\"%s\"}"),
    PLAIN("text/plain", "%s"),
    HTML(
        "text/html",
        "<!DOCTYPE html><html><head><title>Error</title></head><body><h1>Error</h1><p>%s</p></body></html>"),
    EMPTY("text/plain", "");

    final String contentType;
    final String template;

    Shape(String contentType, String template) {
      this.contentType = contentType;
      this.template = template;
    }

    String body(String sentence) {
      return template.isEmpty() ? "" : String.format(template, sentence);
    }
  }

  private static void answer(int status, Shape shape, String sentence) {
    api.answer(
        aResponse()
            .withStatus(status)
            .withHeader("Content-Type", shape.contentType)
            .withBody(shape.body(sentence)));
  }

  private static Stream<Arguments> statusesAndShapes(int... statuses) {
    List<Arguments> all = new ArrayList<>();
    for (int status : statuses) {
      for (Shape shape : Shape.values()) {
        all.add(Arguments.of(status, shape));
      }
    }
    return all.stream();
  }

  static Stream<Arguments> keyRefused() {
    return statusesAndShapes(401, 403);
  }

  @ParameterizedTest(name = "HTTP {0}, {1} body")
  @MethodSource("keyRefused")
  void refusedKeySaysCheckCinchApiKey(int status, Shape shape) {
    answer(status, shape, "Invalid API key");
    Runs.Recorder listener = new Runs.Recorder();

    RunFailure failure = runFails(api.runner(TIMEOUT), python("print(1)"), listener);

    assertEquals(Kind.KEY_REFUSED, failure.kind());
    assertTrue(failure.getMessage().contains("CINCH_API_KEY"), failure.getMessage());
    assertTrue(failure.getMessage().contains("HTTP " + status), failure.getMessage());
    assertTrue(
        listener.logs.stream().anyMatch(l -> l.startsWith("ERROR") && l.contains("CINCH_API_KEY")),
        listener.logs::toString);
    api.wireMock().verify(1, postRequestedFor(urlEqualTo("/run")));
  }

  static Stream<Arguments> paymentRequired() {
    return statusesAndShapes(402);
  }

  @ParameterizedTest(name = "HTTP 402, {1} body")
  @MethodSource("paymentRequired")
  void creditsExhaustedSaysDoNotRetry(int status, Shape shape) {
    answer(status, shape, "Payment required");

    RunFailure failure = runFails(api.runner(TIMEOUT));

    assertCreditsExhausted(failure);
    api.wireMock().verify(1, postRequestedFor(urlEqualTo("/run")));
  }

  @ParameterizedTest(name = "HTTP {0} speaking of credits")
  @ValueSource(ints = {400, 403, 409, 422, 500, 503})
  void errorBodySpeakingOfCreditsMeansCreditsExhausted(int status) {
    answer(status, Shape.JSON_ERROR, "Insufficient credits: your balance is 0");

    assertCreditsExhausted(runFails(api.runner(TIMEOUT)));
  }

  @ParameterizedTest(name = "{0} body")
  @ValueSource(
      strings = {
        "{\"error\":\"Insufficient credits\"}",
        "{\"message\":\"Your balance is too low to run code\"}"
      })
  void okAnswerThatOnlySpeaksOfCreditsMeansCreditsExhausted(String body) {
    api.answer(aResponse().withStatus(200).withBody(body));

    assertCreditsExhausted(runFails(api.runner(TIMEOUT)));
  }

  private static void assertCreditsExhausted(RunFailure failure) {
    assertEquals(Kind.CREDITS_EXHAUSTED, failure.kind(), failure.getMessage());
    String m = failure.getMessage();
    assertTrue(m.contains("Do NOT retry"), m);
    assertTrue(m.contains("add credits"), m);
    assertTrue(m.contains("user"), m);
  }

  static Stream<Arguments> errorStatuses() {
    return Stream.concat(
        withKindAndWords(
            statusesAndShapes(400, 413, 422),
            Kind.REQUEST_REFUSED,
            "code must not exceed 100000 bytes"),
        withKindAndWords(
            statusesAndShapes(500, 502, 503, 504),
            Kind.SERVER_ERROR,
            "upstream sandbox pool exhausted"));
  }

  private static Stream<Arguments> withKindAndWords(
      Stream<Arguments> statusesAndShapes, Kind kind, String sentence) {
    return statusesAndShapes.map(a -> Arguments.of(a.get()[0], a.get()[1], kind, sentence));
  }

  /**
   * A refused request (4xx) or a server error (5xx) is reported with its status and an excerpt of
   * the API's own words, without HTML tags, and never retried: a 5xx may have reached the sandbox,
   * and a retry could run the program twice.
   */
  @ParameterizedTest(name = "HTTP {0}, {1} body")
  @MethodSource("errorStatuses")
  void anErrorStatusGivesItsKindStatusAndTheApisOwnWords(
      int status, Shape shape, Kind kind, String sentence) {
    answer(status, shape, sentence);

    RunFailure failure = runFails(api.runner(TIMEOUT));

    assertEquals(kind, failure.kind());
    assertTrue(failure.getMessage().contains("HTTP " + status), failure.getMessage());
    if (shape != Shape.EMPTY) {
      assertTrue(failure.getMessage().contains(sentence), failure.getMessage());
    }
    assertFalse(failure.getMessage().contains("<"), "no HTML tags: " + failure.getMessage());
    api.wireMock().verify(1, postRequestedFor(urlEqualTo("/run")));
  }

  @Test
  void hugeServerErrorPageGivesOnlyAShortExcerpt() {
    String page =
        "<html><body>" + "Internal failure. ".repeat(200_000) + "</body></html>"; // ~3.6 MB
    api.answer(aResponse().withStatus(500).withBody(page));

    RunFailure failure = runFails(api.runner(TIMEOUT));

    assertEquals(Kind.SERVER_ERROR, failure.kind());
    assertTrue(failure.getMessage().contains("Internal failure."), failure.getMessage());
    assertTrue(
        failure.getMessage().length() < 1_000,
        "message is " + failure.getMessage().length() + " chars");
  }

  @Test
  void rateLimitThenSuccessRetriesAndReturnsTheRun() {
    api.answerInTurn(
        null,
        aResponse()
            .withStatus(429)
            .withHeader("Retry-After", "0")
            .withBody("{\"error\":\"slow down\"}"),
        aResponse().withStatus(429).withHeader("Retry-After", "0"),
        aResponse().withStatus(200).withBody(OK_RUN));
    Runs.Recorder listener = new Runs.Recorder();

    RunResult result = api.runner(TIMEOUT).run(python("print(2+2)"), listener).join();

    assertEquals("4", result.stdout().text());
    assertEquals(0, result.exitCode());
    api.wireMock().verify(3, postRequestedFor(urlEqualTo("/run")));
    assertEquals(List.of(1, 2, 3), listener.sent);
    assertEquals(
        2,
        listener.logs.stream().filter(l -> l.startsWith("WARNING") && l.contains("429")).count(),
        listener.logs::toString);
  }

  @Test
  void rateLimitRetriesABoundedNumberOfTimesThenSaysRateLimited() {
    api.answer(
        aResponse().withStatus(429).withHeader("Retry-After", "0").withBody("Too Many Requests"));

    RunFailure failure = runFails(api.runner(TIMEOUT));

    assertEquals(Kind.RATE_LIMITED, failure.kind());
    assertTrue(failure.getMessage().contains("429"), failure.getMessage());
    assertTrue(
        failure.getMessage().contains(CinchApiRunner.MAX_ATTEMPTS + " attempts"),
        failure.getMessage());
    api.wireMock().verify(CinchApiRunner.MAX_ATTEMPTS, postRequestedFor(urlEqualTo("/run")));
  }

  @Test
  void rateLimitWithOneSecondRetryAfterWaitsThenSucceeds() {
    api.answerInTurn(
        null,
        aResponse().withStatus(429).withHeader("Retry-After", "1"),
        aResponse().withStatus(200).withBody(OK_RUN));

    long start = System.nanoTime();
    RunResult result = runOk(api.runner(TIMEOUT), python("print(2+2)"));
    long elapsedMs = (System.nanoTime() - start) / 1_000_000;

    assertEquals("4", result.stdout().text());
    api.wireMock().verify(2, postRequestedFor(urlEqualTo("/run")));
    // A lower bound only: it did wait for Retry-After rather than hammer the API.
    assertTrue(elapsedMs >= 900, "retried after only " + elapsedMs + " ms");
  }

  @Test
  void rateLimitWhoseWaitWouldPassTheTimeoutFailsAtOnceWithoutRetrying() {
    api.answer(aResponse().withStatus(429).withHeader("Retry-After", "60"));

    RunFailure failure = runFails(api.runner(Duration.ofMillis(2_000)));

    assertEquals(Kind.RATE_LIMITED, failure.kind());
    assertTrue(
        failure.getMessage().contains("longer than this call's 2000 ms deadline"),
        failure.getMessage());
    api.wireMock().verify(1, postRequestedFor(urlEqualTo("/run")));
  }

  @ParameterizedTest
  @ValueSource(strings = {"999999999", "99999999999999999999"})
  void anAbsurdRetryAfterIsShownAsBeyondTheDeadlineNotPassedOn(String retryAfter) {
    api.answer(aResponse().withStatus(429).withHeader("Retry-After", retryAfter));

    RunFailure failure = runFails(api.runner(Duration.ofMillis(2_000)));

    assertEquals(Kind.RATE_LIMITED, failure.kind());
    assertFalse(failure.getMessage().contains("99999"), failure.getMessage());
    assertTrue(failure.getMessage().contains("2000 ms deadline"), failure.getMessage());
    api.wireMock().verify(1, postRequestedFor(urlEqualTo("/run")));
  }

  @Test
  void rateLimitWithoutRetryAfterAndTooLittleTimeLeftFailsAfterOneAttempt() {
    // No Retry-After means a default wait of 1 s, which does not fit in a 500 ms timeout.
    api.answer(aResponse().withStatus(429));

    RunFailure failure = runFails(api.runner(Duration.ofMillis(500)));

    assertEquals(Kind.RATE_LIMITED, failure.kind());
    api.wireMock().verify(1, postRequestedFor(urlEqualTo("/run")));
  }

  @Test
  void connectionRefusedSaysCannotBeReached() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }

    assertCannotReach(URI.create("http://127.0.0.1:" + closedPort + "/run"), "refused");
  }

  @Test
  void unknownHostSaysCannotBeReached() {
    assertCannotReach(URI.create("http://nonexistent.invalid/run"), "does not resolve");
  }

  @Test
  void tlsFailureSaysCannotBeReached() {
    api.answer(aResponse().withStatus(200).withBody(OK_RUN));
    // https spoken to a plain-http port: the handshake cannot succeed.
    assertCannotReach(URI.create("https://127.0.0.1:" + api.wireMock().port() + "/run"), "TLS");
  }

  /** A call to this address fails as unreachable: "Cannot reach", and why. */
  private static void assertCannotReach(URI runUri, String why) {
    RunFailure failure = runFails(api.runner(runUri, TIMEOUT));

    assertEquals(Kind.UNREACHABLE, failure.kind(), failure.getMessage());
    assertTrue(failure.getMessage().startsWith("Cannot reach"), failure.getMessage());
    assertTrue(failure.getMessage().contains(why), failure.getMessage());
  }

  static Stream<Arguments> notARun() {
    return Stream.of(
        Arguments.of(
            "HTML", "<html><body><h1>Welcome to nginx!</h1></body></html>", "Welcome to nginx!"),
        Arguments.of(
            "truncated JSON", "{\"stdout\":\"4\",\"stderr\":\"\",\"exitC", "{\"stdout\":\"4\""),
        Arguments.of("array", "[{\"stdout\":\"4\"}]", "[{"),
        Arguments.of("empty object", "{}", "{}"),
        Arguments.of("empty body", "", "empty"),
        Arguments.of("JSON string", "\"ok\"", "ok"),
        Arguments.of("trailing garbage", OK_RUN + " trailing", "trailing"),
        Arguments.of("exitCode as text", "{\"stdout\":\"4\",\"exitCode\":\"zero\"}", "zero"),
        Arguments.of("exitCode fractional", "{\"stdout\":\"4\",\"exitCode\":1.5}", "1.5"),
        Arguments.of("timedOut as text", "{\"stdout\":\"4\",\"timedOut\":\"no\"}", "timedOut"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("notARun")
  void okAnswerThatIsNotARunIsAnUnexpectedAnswerWithExcerpt(
      String what, String body, String expectedInMessage) {
    api.answer(aResponse().withStatus(200).withBody(body));

    RunFailure failure = runFails(api.runner(TIMEOUT));

    assertEquals(Kind.UNEXPECTED_ANSWER, failure.kind(), failure.getMessage());
    assertTrue(failure.getMessage().contains(expectedInMessage), failure.getMessage());
    assertTrue(failure.getMessage().contains("CINCH_BASE_URL"), failure.getMessage());
  }

  @Test
  void hugeOkAnswerThatIsNotARunGivesOnlyAShortExcerpt() {
    String body = "<html>" + "x".repeat(5_000_000) + "</html>";
    api.answer(aResponse().withStatus(200).withBody(body));

    RunFailure failure = runFails(api.runner(TIMEOUT));

    assertEquals(Kind.UNEXPECTED_ANSWER, failure.kind());
    assertTrue(
        failure.getMessage().length() < 1_000,
        "message is " + failure.getMessage().length() + " chars");
  }

  @ParameterizedTest(name = "HTTP {0}")
  @ValueSource(ints = {301, 302, 303, 307, 308})
  void redirectIsNotFollowedAndIsAnError(int status) {
    api.answer(
        aResponse().withStatus(status).withHeader("Location", api.base() + "/elsewhere/run"));
    api.wireMock()
        .stubFor(
            post(urlEqualTo("/elsewhere/run"))
                .willReturn(aResponse().withStatus(200).withBody(OK_RUN)));
    api.wireMock()
        .stubFor(
            get(urlEqualTo("/elsewhere/run"))
                .willReturn(aResponse().withStatus(200).withBody(OK_RUN)));

    RunFailure failure = runFails(api.runner(TIMEOUT));

    assertEquals(Kind.UNEXPECTED_ANSWER, failure.kind());
    assertTrue(failure.getMessage().contains("redirect"), failure.getMessage());
    assertTrue(failure.getMessage().contains("CINCH_BASE_URL"), failure.getMessage());
    api.wireMock().verify(0, postRequestedFor(urlEqualTo("/elsewhere/run")));
    api.wireMock().verify(0, getRequestedFor(urlEqualTo("/elsewhere/run")));
    api.wireMock().verify(1, anyRequestedFor(anyUrl()));
  }

  @Test
  void slowAnswerIsATimeoutWithinTheTimeout() {
    // The answer, when it comes, is a good run: a TIMEOUT shows the call ended at its deadline
    // rather than waiting for it.
    api.answer(aResponse().withStatus(200).withBody(OK_RUN).withFixedDelay(3_000));

    RunFailure failure = runFails(api.runner(Duration.ofMillis(400)));

    assertEquals(Kind.TIMEOUT, failure.kind(), failure.getMessage());
    assertTrue(failure.getMessage().contains("400 ms"), failure.getMessage());
    assertTrue(failure.getMessage().contains("CINCH_TIMEOUT_MS"), failure.getMessage());
  }

  @Test
  void answerWhoseBodyDribblesPastTheTimeoutIsATimeout() {
    // Whole, the body is a good run: a TIMEOUT shows the call did not wait for all of it.
    api.answer(aResponse().withStatus(200).withBody(OK_RUN).withChunkedDribbleDelay(20, 4_000));

    RunFailure failure = runFails(api.runner(Duration.ofMillis(500)));

    assertEquals(Kind.TIMEOUT, failure.kind(), failure.getMessage());
    assertTrue(failure.getMessage().contains("500 ms"), failure.getMessage());
  }

  @Test
  void unexpectedStatusIsAnUnexpectedAnswer() {
    answer(404, Shape.PLAIN, "Not Found");

    RunFailure failure = runFails(api.runner(TIMEOUT));

    assertEquals(Kind.UNEXPECTED_ANSWER, failure.kind());
    assertTrue(failure.getMessage().contains("HTTP 404"), failure.getMessage());
    assertTrue(failure.getMessage().contains("CINCH_BASE_URL"), failure.getMessage());
  }

  @Test
  void aListenerThatThrowsCannotStallTheCall() {
    api.answer(aResponse().withStatus(401).withBody("{\"error\":\"no\"}"));
    RunListener throwing =
        new RunListener() {
          @Override
          public void sent(int attempt) {
            throw new IllegalStateException("sent");
          }

          @Override
          public void log(Level level, String message) {
            throw new IllegalStateException("log");
          }
        };
    // A stalled call would only end at its 60 s deadline; the harness gives up after 20 s.
    RunFailure failure =
        Runs.runFails(api.runner(Duration.ofSeconds(60)), Runs.python("print(1)"), throwing);
    assertEquals(RunFailure.Kind.KEY_REFUSED, failure.kind());
  }
}
