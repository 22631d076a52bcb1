package dev.cinchmcp.backend.cinch;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static dev.cinchmcp.testkit.Runs.python;
import static dev.cinchmcp.testkit.Runs.runOk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.StreamCapture;
import dev.cinchmcp.testkit.FakeCinchApi;
import dev.cinchmcp.text.CappedText;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** How the API's answer to a run becomes a {@link RunResult}, read from a real HTTP response. */
class CinchApiRunnerResultTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  @RegisterExtension static final FakeCinchApi api = new FakeCinchApi();

  private static RunResult answer(String body) {
    api.answer(
        aResponse().withStatus(200).withHeader("Content-Type", "application/json").withBody(body));
    return runOk(api.runner(Duration.ofSeconds(10)), python("print(1)"));
  }

  private static RunResult answer(Map<String, Object> fields) throws Exception {
    return answer(JSON.writeValueAsString(fields));
  }

  private static Map<String, Object> run(String stdout, String stderr) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("stdout", stdout);
    m.put("stderr", stderr);
    m.put("exitCode", 0);
    m.put("timedOut", false);
    m.put("durationMs", 287);
    return m;
  }

  /**
   * An answer is read field by field into the whole result; a run succeeded when it exited 0 within
   * its time. A stream the answer does not have (or has as null) is empty.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource
  void answersAreReadWhole(String what, String body, RunResult expected, boolean succeeded) {
    RunResult r = answer(body);

    assertEquals(expected, r);
    assertEquals(succeeded, r.succeeded());
  }

  static Stream<Arguments> answersAreReadWhole() {
    return Stream.of(
        arguments(
            "the documented answer",
            "{\"stdout\": \"4\", \"stderr\": \"\", \"exitCode\": 0, \"timedOut\": false, \"durationMs\": 287}",
            read("4", "", 0, false, 287L),
            true),
        arguments(
            "unknown fields of every kind are ignored",
            "{\"id\":\"run_123\",\"meta\":{\"region\":\"eu\",\"tags\":[1,2,{\"a\":[[],{}]}],\"x\":null},"
                + "\"stdout\":\"hi\\n\",\"cost\":0.00012,\"ok\":true,\"stderr\":\"\",\"exitCode\":0,\"timedOut\":false,"
                + "\"durationMs\":12,\"sandbox\":{\"python\":\"3.12\"},\"warnings\":[]}",
            read("hi\n", "", 0, false, 12L),
            true),
        arguments(
            "a missing exit code is null and not a success",
            "{\"stdout\":\"4\"}",
            read("4", null, null, false, null),
            false),
        arguments(
            "null fields count as missing",
            "{\"stdout\":\"4\",\"stderr\":null,\"exitCode\":null,\"timedOut\":null,\"durationMs\":null}",
            read("4", null, null, false, null),
            false),
        arguments(
            "snake case names are accepted",
            "{\"stdout\":\"\",\"stderr\":\"boom\",\"exit_code\":1,\"timed_out\":true,\"duration_ms\":10001}",
            read("", "boom", 1, true, 10_001L),
            false),
        arguments(
            "a non-zero exit is not a success",
            "{\"stdout\":\"\",\"stderr\":\"Traceback\",\"exitCode\":-9,\"timedOut\":false,\"durationMs\":5}",
            read("", "Traceback", -9, false, 5L),
            false),
        arguments(
            "timed out with exit 0 is not a success",
            "{\"stdout\":\"partial\",\"stderr\":\"\",\"exitCode\":0,\"timedOut\":true,\"durationMs\":10000}",
            read("partial", "", 0, true, 10_000L),
            false),
        arguments(
            "white space around the answer is allowed",
            "\r\n  { \"stdout\" : \"4\" , \"exitCode\" : 0 }  \n",
            read("4", null, 0, false, null),
            true));
  }

  /** The result the Cinch backend reads from these fields (a null stream is an empty one). */
  private static RunResult read(
      String stdout, String stderr, Integer exitCode, boolean timedOut, Long durationMs) {
    return new RunResult(
        StreamCapture.of(stdout),
        StreamCapture.of(stderr),
        exitCode,
        timedOut,
        durationMs,
        "cinch",
        null);
  }

  @Test
  void escapesAreDecodedAndCountedAsTheCharactersTheyStandFor() {
    RunResult r =
        answer(
            "{\"stdout\":\"caf\\u00e9 \\ud83d\\ude00 \\\"q\\\" \\\\ \\/ \\t\\r\\n\",\"exitCode\":0}");

    assertEquals("café \uD83D\uDE00 \"q\" \\ / \t\r\n", r.stdout().text());
    assertEquals(r.stdout().text().length(), r.stdout().originalLength());
  }

  @Test
  void rawUtf8IsDecoded() throws Exception {
    RunResult r = answer(run("héllo 日本語 😀", ""));

    assertEquals("héllo 日本語 😀", r.stdout().text());
  }

  @ParameterizedTest(name = "{0} characters")
  @ValueSource(ints = {0, 1, 19_999, 20_000})
  void streamsUpToTheLimitAreKeptWhole(int length) throws Exception {
    String out = "x".repeat(length);
    RunResult r = answer(run(out, out));

    assertEquals(out, r.stdout().text());
    assertEquals(length, r.stdout().originalLength());
    assertFalse(r.stdout().truncated());
    assertEquals(out, r.stderr().text());
    assertFalse(r.stderr().truncated());
  }

  @ParameterizedTest(name = "{0} characters")
  @ValueSource(ints = {20_001, 20_002, 100_000})
  void streamsOverTheLimitKeepTheirStartAndEndWithTheirLengthReported(int length) throws Exception {
    String out = "0123456789".repeat(length / 10 + 1).substring(0, length);
    RunResult r = answer(run(out, out));

    for (CappedText stream : java.util.List.of(r.stdout(), r.stderr())) {
      assertEquals(out.substring(0, CappedText.HEAD), stream.head());
      assertEquals(out.substring(length - CappedText.TAIL), stream.tail());
      assertEquals(length, stream.originalLength());
      assertTrue(stream.truncated());
      assertEquals(length - CappedText.HEAD - CappedText.TAIL, stream.omittedChars());
    }
  }

  @Test
  void emojiAcrossTheHeadCutIsLeftOutWhole() throws Exception {
    String out = "a".repeat(CappedText.HEAD - 1) + "\uD83D\uDE00" + "b".repeat(30_000);
    RunResult r = answer(run(out, ""));

    assertEquals("a".repeat(CappedText.HEAD - 1), r.stdout().head());
    assertEquals(out.length(), r.stdout().originalLength());
    assertEquals(
        out.length() - r.stdout().head().length() - r.stdout().tail().length(),
        r.stdout().omittedChars());
  }

  @Test
  void escapedEmojiAcrossTheTailCutIsLeftOutWhole() {
    String body =
        "{\"stdout\":\""
            + "a".repeat(30_000)
            + "\\ud83d\\ude00"
            + "c".repeat(CappedText.TAIL - 1)
            + "\",\"exitCode\":0}";
    RunResult r = answer(body);

    assertEquals("c".repeat(CappedText.TAIL - 1), r.stdout().tail());
    assertEquals(30_000 + 2 + CappedText.TAIL - 1, r.stdout().originalLength());
  }

  @Test
  void escapedControlCharactersAndLoneSurrogatesAreShownCompactly() {
    RunResult r = answer("{\"stdout\":\"a\\u0001b\\ud800c\\u001b[31md\",\"exitCode\":0}");

    assertEquals("a\u2401b\uFFFDcd", r.stdout().text());
    assertEquals(11, r.stdout().originalLength());
    assertTrue(r.stdout().cleaned());
  }

  @Test
  void fiveMegabytesOfStdoutAreCutAndCounted() throws Exception {
    int length = 5 * 1024 * 1024;
    String out = "y".repeat(length);
    RunResult r = answer(run(out, "small"));

    assertEquals(CappedText.HEAD, r.stdout().head().length());
    assertEquals(CappedText.TAIL, r.stdout().tail().length());
    assertEquals(length, r.stdout().originalLength());
    assertEquals("small", r.stderr().text());
    assertEquals(0, r.exitCode());
  }
}
