package dev.cinchmcp.backend.cinch;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static dev.cinchmcp.testkit.FakeCinchApi.KEY;
import static dev.cinchmcp.testkit.Runs.python;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.testkit.FakeCinchApi;
import dev.cinchmcp.testkit.KeyEchoes;
import dev.cinchmcp.testkit.Runs;
import dev.cinchmcp.text.CappedText;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;

/**
 * An API (or a proxy in front of it) that echoes the Authorization header or the key back: the key
 * must reach no result text, no structured content, no listener message and no log line.
 */
class RedactionTest {

  /**
   * WireMock's response templating writes the request's own Authorization header into the answer.
   */
  private static final String ECHO = "{{request.headers.Authorization}}";

  private static final ObjectMapper JSON = new ObjectMapper();

  @RegisterExtension static final FakeCinchApi api = new FakeCinchApi();

  private PrintStream originalErr;
  private final ByteArrayOutputStream capturedErr = new ByteArrayOutputStream();

  /** Everything that came back from the runner, as text, to search for the key. */
  private final List<String> seen = new ArrayList<>();

  @BeforeEach
  void captureStderr() {
    originalErr = System.err;
    System.setErr(new PrintStream(capturedErr, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restoreStderrAndCheckIt() {
    System.setErr(originalErr);
    String log = capturedErr.toString(StandardCharsets.UTF_8);
    KeyEchoes.assertNoKey(KEY, log);
    for (String text : seen) {
      KeyEchoes.assertNoKey(KEY, text);
    }
  }

  private void echo(int status, String body) {
    api.answer(aResponse().withStatus(status).withBody(body).withTransformers("response-template"));
  }

  private RunFailure failure() {
    Runs.Recorder listener = new Runs.Recorder();
    RunFailure failure =
        Runs.runFails(api.runner(Duration.ofSeconds(5)), python("print(1)"), listener);
    seen.add(failure.getMessage());
    seen.addAll(listener.logs);
    return failure;
  }

  private RunResult result() {
    RunResult r = Runs.runOk(api.runner(Duration.ofSeconds(5)), python("print(1)"));
    seen.add(r.toString());
    seen.add(r.stdout().text());
    seen.add(r.stderr().text());
    return r;
  }

  @Test
  void theEchoReallyCarriesTheKey() throws Exception {
    // Without this, every test below would pass against a WireMock that echoed nothing.
    echo(200, "{\"stdout\":\"" + ECHO + "\"}");
    var http = java.net.http.HttpClient.newHttpClient();
    var response =
        http.send(
            java.net.http.HttpRequest.newBuilder(api.base().resolve("/run"))
                .header("Authorization", "Bearer " + KEY)
                .POST(java.net.http.HttpRequest.BodyPublishers.noBody())
                .build(),
            java.net.http.HttpResponse.BodyHandlers.ofString());
    assertTrue(response.body().contains(KEY), response.body());
  }

  @Test
  void keyEchoedInRefusedKeyBodyIsMasked() {
    echo(401, "{\"error\":\"invalid credentials: " + ECHO + "\"}");

    RunFailure failure = failure();

    assertTrue(failure.getMessage().contains(Redactor.MASK), failure.getMessage());
  }

  @Test
  void keyEchoedInPlainTextServerErrorIsMasked() {
    echo(502, "Bad gateway. Upstream request: POST /run Authorization: " + ECHO + " Host: api");

    RunFailure failure = failure();

    assertTrue(failure.getMessage().contains(Redactor.MASK), failure.getMessage());
  }

  @Test
  void keyEchoedInHtmlRefusalIsMasked() {
    echo(400, "<html><body><p>Bad request from key " + ECHO + "</p></body></html>");

    failure();
  }

  @Test
  void keyEchoedInCreditsBodyIsMasked() {
    echo(402, "{\"message\":\"No credits left for key " + ECHO + "\"}");

    RunFailure failure = failure();

    assertEquals(RunFailure.Kind.CREDITS_EXHAUSTED, failure.kind());
  }

  @Test
  void keyEchoedInOkAnswerThatSpeaksOfCreditsIsMasked() {
    echo(200, "{\"error\":\"balance is zero for " + ECHO + "\"}");

    assertEquals(RunFailure.Kind.CREDITS_EXHAUSTED, failure().kind());
  }

  @Test
  void keyEchoedInOkAnswerThatIsNotARunIsMasked() {
    echo(200, "<html>echo: " + ECHO + "</html>");

    assertEquals(RunFailure.Kind.UNEXPECTED_ANSWER, failure().kind());
  }

  @Test
  void keyPrintedOnStdoutAndStderrIsMasked() throws Exception {
    echo(
        200,
        JSON.writeValueAsString(
            Map.of(
                "stdout", "env says " + ECHO + "\nand again " + KEY + "\n",
                "stderr", "warning: " + KEY,
                "exitCode", 0)));

    RunResult r = result();

    assertTrue(r.stdout().text().contains(Redactor.MASK), r.stdout().text());
    assertTrue(r.stderr().text().contains(Redactor.MASK), r.stderr().text());
  }

  @Test
  void keySplitByEitherCutLeavesNoRecognisablePiece() throws Exception {
    // The head ends after HEAD characters; the tail starts TAIL characters before the end.
    int length = 40_000;
    for (int kept = 1; kept < KEY.length(); kept++) {
      String acrossHead =
          "a".repeat(CappedText.HEAD - kept)
              + KEY
              + "z".repeat(length - CappedText.HEAD - KEY.length() + kept);
      String acrossTail =
          "a".repeat(length - CappedText.TAIL - KEY.length() + kept)
              + KEY
              + "z".repeat(CappedText.TAIL - kept);
      echo(
          200,
          JSON.writeValueAsString(
              Map.of("stdout", acrossHead, "stderr", acrossTail, "exitCode", 0)));

      RunResult r = result();

      assertEquals(length, r.stdout().originalLength());
      assertEquals(length, r.stderr().originalLength());
      String head = r.stdout().head();
      String tail = r.stderr().tail();
      if (kept >= 6) {
        assertTrue(
            head.endsWith(Redactor.MASK),
            kept + " chars of the key's start survived: " + head.substring(head.length() - 30));
        assertTrue(
            tail.startsWith(Redactor.MASK),
            kept + " chars of the key's end survived: " + tail.substring(0, 30));
      }
      assertFalse(
          head.contains(KEY.substring(0, Math.max(6, kept))), "start survived, kept " + kept);
      assertFalse(
          tail.contains(KEY.substring(KEY.length() - Math.max(6, kept))),
          "end survived, kept " + kept);
      // The counts stay those of the output, not of the masked text.
      assertEquals(
          length - CappedText.HEAD - CappedText.TAIL, r.stdout().omittedChars(), "kept " + kept);
    }
  }

  @Test
  void keyStraddlingTheExcerptOfAnAnswerThatIsNotARunLeavesNoRecognisableStart() {
    // The excerpt of an unreadable answer is its first 300 characters: put the key across that
    // edge.
    int before = RunAnswerReader.EXCERPT_LIMIT - 20;
    echo(200, "<" + "x".repeat(before - 1) + KEY + " and more");

    RunFailure failure = failure();

    assertEquals(RunFailure.Kind.UNEXPECTED_ANSWER, failure.kind());
    assertFalse(failure.getMessage().contains(KEY.substring(0, 20)), failure.getMessage());
  }

  @Test
  void keyStraddlingTheCutOfACreditsMessageLeavesNoRecognisableStart() {
    String words = "Out of credits for ";
    echo(
        200,
        "{\"error\":\""
            + words
            + "y".repeat(RunAnswerReader.EXCERPT_LIMIT - words.length() - 20)
            + KEY
            + "\"}");

    RunFailure failure = failure();

    assertEquals(RunFailure.Kind.CREDITS_EXHAUSTED, failure.kind());
    assertFalse(failure.getMessage().contains(KEY.substring(0, 20)), failure.getMessage());
  }

  @Test
  void keyStraddlingTheCutOfALongErrorBodyLeavesNoRecognisableStart() {
    // Error bodies are read up to 16 KiB: a page whose text starts just before that edge with the
    // key.
    int edge = 16 * 1024;
    String page = "<div " + "x".repeat(edge - 5 - 1 - 20) + ">" + KEY + " and more";
    echo(500, page);

    RunFailure failure = failure();

    assertEquals(RunFailure.Kind.SERVER_ERROR, failure.kind());
    assertFalse(failure.getMessage().contains(KEY.substring(0, 20)), failure.getMessage());
  }

  @Test
  void transportFailuresAreLoggedWithoutTheKey()
      throws IOException,
          InterruptedException,
          ExecutionException,
          java.util.concurrent.TimeoutException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    CinchApiRunner runner =
        api.runner(URI.create("http://127.0.0.1:" + closedPort + "/run"), Duration.ofSeconds(5));
    try {
      runner
          .run(python("print(1)"), dev.cinchmcp.backend.RunListener.NONE)
          .get(10, TimeUnit.SECONDS);
    } catch (ExecutionException expected) {
      seen.add(expected.getCause().getMessage());
    }
    // The capture works: the failure was logged (at debug, which the test configuration shows).
    assertTrue(
        LoggerFactory.getLogger(CinchApiRunner.class).isDebugEnabled(),
        "tests log dev.cinchmcp at debug");
    assertTrue(
        capturedErr.toString(StandardCharsets.UTF_8).contains("Request to the Cinch API failed"),
        capturedErr.toString(StandardCharsets.UTF_8));
  }

  /** Each encoding of the key, by index (the tests' names then show no key). */
  static java.util.stream.IntStream encodings() {
    return java.util.stream.IntStream.range(0, KeyEchoes.of(KEY).size());
  }

  private static String encoded(int i) {
    return KeyEchoes.of(KEY).get(i);
  }

  @ParameterizedTest
  @MethodSource("encodings")
  void keyEchoedEncodedInARefusedKeyJsonBodyIsMasked(int encoding) {
    // Inside a JSON string: a backslash of the encoding is itself escaped, as a server would.
    echo(401, "{\"error\":\"bad key " + jsonContent(encoded(encoding)) + "\"}");

    RunFailure failure = failure();

    assertEquals(RunFailure.Kind.KEY_REFUSED, failure.kind());
    assertTrue(failure.getMessage().contains(Redactor.MASK), "encoding #" + encoding);
  }

  @ParameterizedTest
  @MethodSource("encodings")
  void keyEchoedEncodedAsJsonEscapesInARefusedKeyBodyIsMasked(int encoding) {
    // Written raw: \/ and \u0063 are the body's own JSON escapes, undone when it is read.
    echo(401, "{\"error\":\"bad key " + encoded(encoding) + "\"}");

    assertEquals(RunFailure.Kind.KEY_REFUSED, failure().kind());
  }

  @ParameterizedTest
  @MethodSource("encodings")
  void keyEchoedEncodedInAServerErrorIsMasked(int encoding) {
    echo(503, "upstream said: Authorization: " + encoded(encoding) + " (retry later)");

    RunFailure failure = failure();

    assertEquals(RunFailure.Kind.SERVER_ERROR, failure.kind());
    assertTrue(failure.getMessage().contains(Redactor.MASK), "encoding #" + encoding);
  }

  @ParameterizedTest
  @MethodSource("encodings")
  void keyPrintedEncodedOnStdoutIsMasked(int encoding) throws Exception {
    echo(
        200,
        JSON.writeValueAsString(
            Map.of("stdout", "env: " + encoded(encoding) + "\n", "stderr", "", "exitCode", 0)));

    RunResult r = result();

    assertTrue(r.stdout().text().contains(Redactor.MASK), "encoding #" + encoding);
  }

  @ParameterizedTest
  @MethodSource("encodings")
  void keyEchoedEncodedInResponseHeadersReachesNothing(int encoding) {
    // Headers are never quoted to the model; a Retry-After holding the key is just not a number.
    api.answer(
        aResponse()
            .withStatus(429)
            .withHeader("Retry-After", encoded(encoding))
            .withHeader("WWW-Authenticate", "Bearer error=\"" + encoded(encoding) + "\""));

    // A deadline shorter than the default 1 s wait: refused at once, no retries to sit through.
    RunFailure failure = Runs.runFails(api.runner(Duration.ofMillis(900)));
    seen.add(failure.getMessage());

    assertEquals(RunFailure.Kind.RATE_LIMITED, failure.kind());
  }

  @Test
  void keyWithASlashEchoedWithItsSlashEscapedIsMasked() {
    // The issue's case: PHP's json_encode writes '/' as '\/'; the old masking looked for the raw
    // key, then the message's unescaping put it back together.
    String key = "cinch_live_ab/cd_9f8e7d6c";
    echo(401, "{\"error\":\"bad key " + key.replace("/", "\\/") + "\"}");

    RunFailure failure =
        Runs.runFails(
            api.runner(api.base().resolve("/run"), Duration.ofSeconds(5), key),
            python("print(1)"),
            dev.cinchmcp.backend.RunListener.NONE);

    KeyEchoes.assertNoKey(key, failure.getMessage());
    assertTrue(failure.getMessage().contains("bad key " + Redactor.MASK), "masked in place");
  }

  /** The text as the content of a JSON string. */
  private static String jsonContent(String text) {
    try {
      String quoted = JSON.writeValueAsString(text);
      return quoted.substring(1, quoted.length() - 1);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new AssertionError(e);
    }
  }
}
