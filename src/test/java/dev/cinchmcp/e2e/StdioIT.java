package dev.cinchmcp.e2e;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cinchmcp.testkit.Await;
import dev.cinchmcp.testkit.FakeCinchApi;
import dev.cinchmcp.testkit.HangingApi;
import dev.cinchmcp.testkit.JarProcess;
import dev.cinchmcp.testkit.Processes;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The stdio layer of the built jar: bad input, end of input, concurrency, cancellation, progress,
 * logging.
 */
class StdioIT {

  private static final String OK_BODY =
      "{\"stdout\":\"42\\n\",\"stderr\":\"\",\"exitCode\":0,\"timedOut\":false,\"durationMs\":5}";

  /** Arabic-Indic digits, and the decimal and thousands separators that go with them. */
  private static final Pattern ARABIC_DIGITS = Pattern.compile("[\\u0660-\\u066c]");

  @RegisterExtension
  final FakeCinchApi api =
      new FakeCinchApi()
          .threads(150)
          .answering(OK_BODY)
          .slowWhen("slow1500", 1500, OK_BODY)
          .slowWhen("slow2000", 2000, OK_BODY)
          .answeringWhen(
              "big19000",
              FakeCinchApi.json("{\"stdout\":\"" + "x".repeat(19_000) + "\",\"exitCode\":0}"))
          .slowWhen("slow4500", 4500, OK_BODY);

  @Test
  void malformedLinesGetErrorsAndTheServerReadsOn() throws Exception {
    try (JarProcess jar = session(api.baseUrl())) {
      jar.send("this is not json");
      jar.send("");
      jar.send("   ");
      jar.send("[{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}]");
      jar.send("42");
      jar.send("{\"jsonrpc\":\"2.0\",\"id\":{\"x\":1},\"method\":\"ping\"}");
      jar.send("{\"jsonrpc\":\"1.0\",\"id\":8,\"method\":\"ping\"}");
      jar.send("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"no/such/method\"}");
      jar.send(
          "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tools/call\",\"params\":{\"name\":\"nope\",\"arguments\":{}}}");
      jar.send(
          "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tools/call\",\"params\":{\"name\":\"execute_code\",\"arguments\":{\"code\":5}}}");
      // A line over the 8 MiB limit, sent in pieces: rejected, and the next line still works.
      byte[] huge = new byte[9 * 1024 * 1024];
      java.util.Arrays.fill(huge, (byte) 'a');
      jar.sendRaw(huge);
      jar.send("");
      jar.send(JarProcess.call(12, "print(6 * 7)"));

      JsonNode call = jar.awaitReply(12, Duration.ofSeconds(20));
      assertEquals(0, call.path("result").path("structuredContent").path("exitCode").asInt(-1));
      assertEquals(
          -32601, jar.awaitReply(9, Duration.ofSeconds(5)).path("error").path("code").asInt());
      assertEquals(
          -32602, jar.awaitReply(10, Duration.ofSeconds(5)).path("error").path("code").asInt());
      JsonNode badArgs = jar.awaitReply(11, Duration.ofSeconds(5)).path("result");
      assertTrue(badArgs.path("isError").asBoolean());
      assertTrue(
          badArgs
              .path("content")
              .get(0)
              .path("text")
              .asText()
              .contains("\"code\" must be a string"));
      assertEquals(
          -32600, jar.awaitReply(8, Duration.ofSeconds(5)).path("error").path("code").asInt());

      List<Integer> nullIdCodes = new ArrayList<>();
      for (JsonNode m : jar.received()) {
        if (m.has("error") && m.get("id").isNull()) {
          nullIdCodes.add(m.path("error").path("code").asInt());
        }
      }
      // not JSON, batch, bare number, object id, too long; blank lines get nothing
      assertEquals(List.of(-32700, -32600, -32600, -32600, -32600), nullIdCodes);
      jar.closeStdin();
      assertEquals(0, jar.waitForExit(Duration.ofSeconds(10)));
      jar.assertProtocolClean();
    }
  }

  @Test
  void anIdCanBeUsedAgainAsSoonAsItsAnswerArrives() throws Exception {
    try (JarProcess jar = session(api.baseUrl())) {
      for (int i = 1; i <= 100; i++) {
        jar.send(JarProcess.call(7, "print(6 * 7)"));
        int answered = i;
        jar.await(
            m -> repliesTo(jar, 7) >= answered, Duration.ofSeconds(20), "answer " + i + " to id 7");
      }
      List<JsonNode> replies =
          jar.received().stream().filter(m -> m.path("id").asInt(-1) == 7).toList();
      assertEquals(100, replies.size());
      for (JsonNode reply : replies) {
        assertEquals(
            "42\n",
            reply.path("result").path("structuredContent").path("stdout").asText(),
            reply.toString());
      }
      jar.assertProtocolClean();
    }
  }

  private static long repliesTo(JarProcess jar, int id) {
    return jar.received().stream()
        .filter(m -> m.path("id").asInt(-1) == id && !m.has("method"))
        .count();
  }

  @Test
  void endOfInputWithACallInFlightStillAnswersItAndExitsZero() throws Exception {
    try (JarProcess jar = session(api.baseUrl())) {
      jar.send(JarProcess.call(1, "slow1500"));
      jar.closeStdin();
      JsonNode reply = jar.awaitReply(1, Duration.ofSeconds(20));
      assertFalse(reply.path("result").path("isError").asBoolean(true));
      assertEquals(0, jar.waitForExit(Duration.ofSeconds(10)));
      jar.assertProtocolClean();
    }
  }

  @Test
  void sigtermWithACallInFlightStopsItAndWritesNothingMore() throws Exception {
    try (HangingApi hanging = new HangingApi();
        JarProcess jar = session(hanging.baseUrl())) {
      sendUnanswered(jar, hanging, JarProcess.call(1, "print('never answered')", "tok"));
      int stopped = jar.cleanStopStatus();
      List<ProcessHandle> tree = jar.tree();
      // SIGTERM through the handle: Process.destroy() would also close our ends of the pipes.
      assertTrue(jar.process().toHandle().destroy());
      assertEquals(stopped, jar.waitForExit(Duration.ofSeconds(10)));
      assertTrue(Processes.awaitEnded(tree, Duration.ofSeconds(10)), "left: " + tree);
      assertTrue(hanging.awaitHangUp(10), "the HTTP request was not aborted");
      assertTrue(
          jar.received().stream().noneMatch(m -> m.path("id").asInt(-1) == 1),
          "the client is leaving: no answer is written for the stopped call");
      jar.assertProtocolClean();
    }
  }

  @Test
  void pipedSmokeTestFromTheReadmeAnswersTheCall() throws Exception {
    String init =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
            + "\"capabilities\":{},\"clientInfo\":{\"name\":\"smoke\",\"version\":\"1\"}}}";
    String initialized = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";
    String call =
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"execute_code\","
            + "\"arguments\":{\"code\":\"print(6 * 7)\"}}}";
    String script =
        "printf '%s\\n' '" + init + "' '" + initialized + "' '" + call + "' | \"$0\" -jar \"$1\"";
    ProcessBuilder pb =
        new ProcessBuilder("sh", "-c", script, JarProcess.java(), JarProcess.jar().toString());
    pb.environment().putAll(JarProcess.envFor(api.baseUrl()));
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS));
    assertEquals(0, p.exitValue());
    String[] lines = out.strip().split("\n");
    assertEquals(2, lines.length, out);
    JsonNode last = JarProcess.JSON.readTree(lines[1]);
    assertEquals(2, last.path("id").asInt());
    assertEquals("42\n", last.path("result").path("structuredContent").path("stdout").asText());
  }

  @Test
  void sixtyFourSlowCallsRunTogetherNotInWaves() throws Exception {
    try (JarProcess jar = session(api.baseUrl())) {
      // Warm up the connection path so the measurement is about concurrency, not first-call class
      // loading.
      jar.send(JarProcess.call("warm", "print(1)"));
      jar.awaitReply("warm", Duration.ofSeconds(20));
      StringBuilder batch = new StringBuilder();
      for (int i = 0; i < 64; i++) {
        batch.append(JarProcess.call(i, "slow2000")).append('\n');
      }
      jar.sendRaw(batch.toString().getBytes(StandardCharsets.UTF_8));
      // While the first replies are still 2 s away, all 64 requests must already be at the API:
      // a server that ran them in waves would have only the first wave there.
      awaitRequests(65);
      assertTrue(
          jar.received().stream().noneMatch(m -> m.path("id").isInt()),
          "a reply came back before all 64 requests had reached the API: the calls ran in waves");
      for (int i = 0; i < 64; i++) {
        jar.awaitReply(i, Duration.ofSeconds(30));
      }
      assertEquals(65, api.getAllServeEvents().size());
      jar.assertProtocolClean();
    }
  }

  @Test
  void aBurstBeyondTheRunningLimitWaitsItsTurnAndBeyondTheQueueIsRefused() throws Exception {
    try (JarProcess jar = session(api.baseUrl())) {
      StringBuilder burst = new StringBuilder();
      for (int i = 0; i < 64 + 1024 + 5; i++) {
        burst.append(JarProcess.call(i, i < 80 ? "slow4500" : "print(1)")).append('\n');
      }
      jar.sendRaw(burst.toString().getBytes(StandardCharsets.UTF_8));
      awaitRequests(64);
      // The refusals of the last five are written once every line before them was read and
      // admitted: a 65th started beyond the limit would have reached the API long before, and the
      // first answers, which free places, are 4.5 s away (1.5 s was passed on a loaded machine).
      for (int i = 64 + 1024; i < 64 + 1024 + 5; i++) {
        assertEquals(
            -32000,
            jar.awaitReply(i, Duration.ofSeconds(10)).path("error").path("code").asInt(),
            "request " + i + " should have been refused as too many");
      }
      assertEquals(64, api.getAllServeEvents().size(), "more requests ran at once than the limit");
      for (int i = 0; i < 64 + 1024; i++) {
        JsonNode reply = jar.awaitReply(i, Duration.ofSeconds(60));
        assertEquals(
            "42\n",
            reply.path("result").path("structuredContent").path("stdout").asText(),
            reply.toString());
      }
      jar.assertProtocolClean();
    }
  }

  @Test
  void manyQuickRequestsWaitingBehindSlowOnesAreAllAnswered() throws Exception {
    try (JarProcess jar = session(api.baseUrl())) {
      StringBuilder burst = new StringBuilder();
      for (int i = 0; i < 64; i++) {
        burst.append(JarProcess.call(i, "slow1500")).append('\n');
      }
      // Answered without any I/O, so each completes on the thread that starts it: when the slow
      // calls end, the whole queue is started in a row, which must not nest one call in another.
      for (int i = 64; i < 64 + 1000; i++) {
        burst.append("{\"jsonrpc\":\"2.0\",\"id\":").append(i).append(",\"method\":\"ping\"}\n");
      }
      jar.sendRaw(burst.toString().getBytes(StandardCharsets.UTF_8));
      for (int i = 0; i < 64 + 1000; i++) {
        assertTrue(jar.awaitReply(i, Duration.ofSeconds(60)).has("result"), "request " + i);
      }
      jar.assertProtocolClean();
    }
  }

  @Test
  void cancelledCallDropsItsRequestAndGetsNoReply() throws Exception {
    try (HangingApi hanging = new HangingApi();
        JarProcess jar = session(hanging.baseUrl())) {
      sendUnanswered(jar, hanging, JarProcess.call("c1", "print('never answered')"));
      jar.send(
          "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"c1\",\"reason\":\"user\"}}");
      assertTrue(
          hanging.awaitHangUp(10), "the HTTP request was not aborted after the cancellation");
      // Late and unknown cancellations are ignored quietly; the server still answers.
      jar.send(
          "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"c1\"}}");
      jar.send(
          "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":999}}");
      jar.send("{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"ping\"}");
      jar.awaitReply("p", Duration.ofSeconds(10));
      jar.closeStdin();
      assertEquals(0, jar.waitForExit(Duration.ofSeconds(10)));
      jar.assertNoReplyTo("c1", "a cancelled call must get no reply");
      jar.assertProtocolClean();
    }
  }

  @Test
  void progressIsSentForACallWithATokenAndNeverAfterItsReply() throws Exception {
    try (JarProcess jar = session(api.baseUrl())) {
      jar.send(JarProcess.call("with", "slow4500", "tok-1"));
      jar.send(JarProcess.call("without", "slow4500"));
      jar.awaitReply("with", Duration.ofSeconds(20));
      jar.awaitReply("without", Duration.ofSeconds(20));
      Await.timePasses(
          Duration.ofMillis(2500), "past the progress interval: a ticker left running shows");
      List<JsonNode> all = jar.received();
      int replyIndex = -1;
      List<Integer> progressIndexes = new ArrayList<>();
      for (int i = 0; i < all.size(); i++) {
        JsonNode m = all.get(i);
        if ("notifications/progress".equals(m.path("method").asText())) {
          assertEquals(
              "tok-1",
              m.path("params").path("progressToken").asText(),
              "progress only for the call with a token");
          progressIndexes.add(i);
        }
        if ("with".equals(m.path("id").asText(null)) && m.has("result")) {
          replyIndex = i;
        }
      }
      // one when sent, then one every 2 s while waiting 4.5 s
      assertTrue(
          progressIndexes.size() >= 3,
          "expected at least 3 progress notifications, got " + progressIndexes.size());
      final int reply = replyIndex;
      assertTrue(
          progressIndexes.stream().allMatch(i -> i < reply),
          "a progress notification came after the reply");
      double previous = 0;
      for (int i : progressIndexes) {
        double progress = all.get(i).path("params").path("progress").asDouble();
        assertTrue(progress > previous, "progress must increase");
        previous = progress;
      }
      jar.assertProtocolClean();
    }
  }

  @Test
  void retryAfter429IsLoggedToTheClientAndRefusedKeyIsAnError() throws Exception {
    api.answerInTurn(
        "rate",
        aResponse()
            .withStatus(429)
            .withHeader("Retry-After", "0")
            .withBody("{\"error\":\"slow down\"}"),
        FakeCinchApi.json(OK_BODY));
    api.stubFor(
        post(urlEqualTo("/run"))
            .withRequestBody(containing("badkey"))
            .willReturn(
                aResponse()
                    .withStatus(401)
                    .withBody("{\"error\":\"bad key " + JarProcess.KEY + "\"}")));
    try (JarProcess jar = session(api.baseUrl())) {
      jar.send(
          "{\"jsonrpc\":\"2.0\",\"id\":\"lvl\",\"method\":\"logging/setLevel\",\"params\":{\"level\":\"info\"}}");
      jar.awaitReply("lvl", Duration.ofSeconds(10));
      jar.send(JarProcess.call("r", "rate"));
      JsonNode reply = jar.awaitReply("r", Duration.ofSeconds(20));
      assertFalse(reply.path("result").path("isError").asBoolean(true));
      JsonNode warning = awaitLogMessage(jar, "warning");
      assertTrue(warning.path("params").path("data").asText().contains("429"));

      jar.send(JarProcess.call("k", "badkey"));
      JsonNode refused = jar.awaitReply("k", Duration.ofSeconds(20)).path("result");
      assertTrue(refused.path("isError").asBoolean());
      assertTrue(refused.path("content").get(0).path("text").asText().contains("CINCH_API_KEY"));
      awaitLogMessage(jar, "error");

      // Above the level set by the client, messages are dropped.
      jar.send(
          "{\"jsonrpc\":\"2.0\",\"id\":\"lvl2\",\"method\":\"logging/setLevel\",\"params\":{\"level\":\"critical\"}}");
      jar.awaitReply("lvl2", Duration.ofSeconds(10));
      int before = countLogMessages(jar);
      jar.send(JarProcess.call("k2", "badkey"));
      jar.awaitReply("k2", Duration.ofSeconds(20));
      jar.send("{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"ping\"}");
      jar.awaitReply("p", Duration.ofSeconds(10));
      assertEquals(before, countLogMessages(jar));
      jar.assertProtocolClean();
    }
  }

  @Test
  void misconfiguredServerStartsAndExplainsOnEveryCall() throws Exception {
    try (JarProcess jar =
        JarProcess.start(Map.of("CINCH_BASE_URL", api.baseUrl(), "CINCH_TIMEOUT_MS", "soon"))) {
      jar.initialize();
      jar.send(JarProcess.call(1, "print(1)"));
      JsonNode result = jar.awaitReply(1, Duration.ofSeconds(20)).path("result");
      assertTrue(result.path("isError").asBoolean());
      String text = result.path("content").get(0).path("text").asText();
      assertTrue(text.contains("CINCH_API_KEY is not set"), text);
      assertTrue(text.contains("CINCH_TIMEOUT_MS") && text.contains("soon"), text);
      assertTrue(jar.stderr().contains("CINCH_API_KEY"), jar.stderr());
      assertEquals(0, api.getAllServeEvents().size(), "nothing may be sent while misconfigured");
      jar.assertProtocolClean();
    }
  }

  /** The first log message (notifications/message) of this level; waits up to 5 s for it. */
  private static JsonNode awaitLogMessage(JarProcess jar, String level) throws Exception {
    return jar.await(
        m ->
            "notifications/message".equals(m.path("method").asText())
                && level.equals(m.path("params").path("level").asText()),
        Duration.ofSeconds(5),
        "a log message at level " + level);
  }

  private static int countLogMessages(JarProcess jar) {
    return (int)
        jar.received().stream()
            .filter(m -> "notifications/message".equals(m.path("method").asText()))
            .count();
  }

  @Test
  void sigtermWhileTheClientIsNotReadingStdoutStillEndsTheServer() throws Exception {
    try (JarProcess jar = JarProcess.startNotReadingStdout(JarProcess.envFor(api.baseUrl()))) {
      jar.send(
          "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
              + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"e2e\",\"version\":\"1\"}}}");
      jar.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
      // Ten answers of ~40 KB each: far more than a pipe holds, so writing them blocks.
      for (int i = 0; i < 10; i++) {
        jar.send(JarProcess.call(i, "big19000"));
      }
      awaitRequests(10);
      int stopped = jar.cleanStopStatus();
      List<ProcessHandle> tree = jar.tree();
      assertTrue(jar.process().toHandle().destroy()); // SIGTERM
      // Not a speed target: a write stuck on a client that does not read must not hold the stop.
      assertEquals(stopped, jar.waitForExit(Duration.ofSeconds(30)));
      assertTrue(Processes.awaitEnded(tree, Duration.ofSeconds(30)), "left: " + tree);
    }
  }

  @Test
  void pingBeforeInitializeIsAnsweredAndTheEndOfInputThenExitsAtOnce() throws Exception {
    try (JarProcess jar = JarProcess.start(JarProcess.envFor(api.baseUrl()))) {
      jar.send("{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"ping\"}");
      assertTrue(jar.awaitReply("p", Duration.ofSeconds(20)).path("result").isObject());
      jar.send(JarProcess.call("early", "print(1)"));
      jar.closeStdin();
      JsonNode early = jar.awaitReply("early", Duration.ofSeconds(20));
      assertTrue(early.path("error").path("message").asText().contains("before the session"));
      // The drain limit is 25 s here; before, the server waited it twice (~50 s).
      assertEquals(0, jar.waitForExit(Duration.ofSeconds(10)));
      jar.assertProtocolClean();
    }
  }

  /**
   * A macOS user's JVM takes its locale from the system, in the launcher and in the fast launch's
   * child alike; the numbers a model reads stay ASCII. Here the locale is given as options: through
   * JAVA_TOOL_OPTIONS (which keeps the server in one JVM) and on the child's own command line.
   */
  @ParameterizedTest(name = "fast launch child: {0}")
  @ValueSource(booleans = {false, true})
  void numbersStayAsciiUnderAnArabicLocale(boolean fastChild) throws Exception {
    Map<String, String> env = new HashMap<>(JarProcess.envFor(api.baseUrl()));
    List<String> arabic = List.of("-Duser.language=ar", "-Duser.country=EG");
    if (!fastChild) {
      env.put("JAVA_TOOL_OPTIONS", String.join(" ", arabic));
    }
    try (JarProcess jar =
        (fastChild ? JarProcess.startFast(env, arabic) : JarProcess.start(env)).initialized()) {
      jar.send("{\"jsonrpc\":\"2.0\",\"id\":\"list\",\"method\":\"tools/list\"}");
      String description =
          jar.awaitReply("list", Duration.ofSeconds(10))
              .path("result")
              .path("tools")
              .get(0)
              .path("description")
              .asText();
      assertTrue(description.contains("256 MB"), description);
      assertFalse(ARABIC_DIGITS.matcher(description).find(), description);
      jar.closeStdin();
      assertEquals(0, jar.waitForExit(Duration.ofSeconds(10)));
      assertFalse(ARABIC_DIGITS.matcher(jar.stderr()).find(), jar.stderr());
    }
  }

  /** The jar, started against this API and initialized. */
  private static JarProcess session(String baseUrl) throws Exception {
    return JarProcess.start(JarProcess.envFor(baseUrl)).initialized();
  }

  /** Sends a call the hanging API never answers; returns once its request has reached the API. */
  private static void sendUnanswered(JarProcess jar, HangingApi hanging, String call)
      throws Exception {
    jar.send(call);
    assertTrue(hanging.awaitRequest(20), "the request never reached the API");
  }

  private void awaitRequests(int count) {
    Await.until(
        () -> api.getAllServeEvents().size() >= count,
        Duration.ofSeconds(20),
        count + " requests at the API");
  }
}
