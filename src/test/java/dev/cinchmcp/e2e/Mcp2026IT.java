package dev.cinchmcp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cinchmcp.testkit.Await;
import dev.cinchmcp.testkit.FakeCinchApi;
import dev.cinchmcp.testkit.HangingApi;
import dev.cinchmcp.testkit.JarProcess;
import dev.cinchmcp.testkit.Processes;
import dev.cinchmcp.testkit.TestHomes;
import dev.cinchmcp.transport.FirstLineHandOver;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The built jar as a user starts it (alone in an empty folder, a fresh HOME, plain {@code java
 * -jar}, so from its second start a launcher JVM and the fast child) spoken to in MCP 2026-07-28
 * the way Claude Code does, and stopped the ways clients stop it.
 */
class Mcp2026IT {

  private static final String META =
      "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
          + "\"io.modelcontextprotocol/clientCapabilities\":{\"roots\":{\"listChanged\":true},"
          + "\"elicitation\":{\"form\":{},\"url\":{}}},"
          + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"claude-code\",\"version\":\"2.1.332\"}";
  private static final String OK_BODY =
      "{\"stdout\":\"42\\n\",\"stderr\":\"\",\"exitCode\":0,\"timedOut\":false,\"durationMs\":5}";
  private static final Duration WAIT = Duration.ofSeconds(20);

  private static Path root;
  private static Path home;
  private static Path jar;

  @RegisterExtension
  final FakeCinchApi api =
      new FakeCinchApi().answering(OK_BODY).slowWhen("slow1500", 1500, OK_BODY);

  @BeforeAll
  static void aJarAloneWithItsArchiveMade() throws Exception {
    root = TestHomes.base().resolve("it-2026").resolve(UUID.randomUUID().toString());
    home = Files.createDirectories(root.resolve("home"));
    jar = Files.createDirectories(root.resolve("download")).resolve("cinch-mcp.jar");
    Files.copy(JarProcess.jar(), jar);
    // The first start runs in one JVM and makes the archive the next starts use.
    try (JarProcess first = JarProcess.startAsUser(jar, home, Map.of())) {
      first.closeStdin();
      first.waitForExit(WAIT);
    }
    Path archives = home.resolve(".cache/cinch-mcp/archives");
    Await.until(() -> hasArchive(archives), Duration.ofSeconds(90), "an archive in " + archives);
  }

  private static boolean hasArchive(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.anyMatch(f -> f.toString().endsWith(".jsa") || f.toString().endsWith(".aot"));
    }
  }

  @AfterAll
  static void removeTheFolders() throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  private static JarProcess start(String baseUrl) throws IOException {
    JarProcess server = JarProcess.startAsUser(jar, home, JarProcess.envFor(baseUrl));
    return server;
  }

  private static String request(Object id, String method, String fields) throws IOException {
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + JarProcess.JSON.writeValueAsString(id)
        + ",\"method\":\""
        + method
        + "\",\"params\":{\"_meta\":{"
        + META
        + "}"
        + (fields.isEmpty() ? "" : "," + fields)
        + "}}";
  }

  private static String call(Object id, String code, String extraMeta) throws IOException {
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + JarProcess.JSON.writeValueAsString(id)
        + ",\"method\":\"tools/call\",\"params\":{\"_meta\":{"
        + META
        + extraMeta
        + "},\"name\":\"execute_code\",\"arguments\":{\"code\":"
        + JarProcess.JSON.writeValueAsString(code)
        + "}}}";
  }

  private static String cancel(Object id) throws IOException {
    return "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"_meta\":{"
        + META
        + "},\"requestId\":"
        + JarProcess.JSON.writeValueAsString(id)
        + ",\"reason\":\"the user pressed Esc\"}}";
  }

  /** The fast launch users get from the second start on: a launcher and its child JVM. */
  private static void assertFastLaunch(JarProcess server) throws InterruptedException {
    Await.until(() -> server.tree().size() >= 2, WAIT, "the fast launch's child JVM");
  }

  private static void assertAllEnded(List<ProcessHandle> tree) throws Exception {
    assertTrue(Processes.awaitEnded(tree, Duration.ofSeconds(10)), "still running: " + tree);
  }

  /** Opens a 2025 session in this revision; returns the initialize result. */
  private static JsonNode initialize2025(JarProcess server, String version) throws Exception {
    server.send(
        "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
            + version
            + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"e2e\",\"version\":\"1\"}}}");
    JsonNode init = server.awaitReply("init", WAIT).path("result");
    server.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    return init;
  }

  /** A call in a 2025 session is answered as 2025 answers are: without a resultType. */
  private static void assertServes2025Call(JarProcess server, int id) throws Exception {
    server.send(JarProcess.call(id, "print(6 * 7)"));
    JsonNode result = server.awaitReply(id, WAIT).path("result");
    assertFalse(result.has("resultType"));
    assertEquals("42\n", result.at("/structuredContent/stdout").asText());
  }

  /**
   * A first discover answered, then the fast launch's child JVM running; returns the process tree
   * (the launcher and its child).
   */
  private static List<ProcessHandle> discoverOnAFastLaunch(JarProcess server) throws Exception {
    server.send(request("d", "server/discover", ""));
    server.awaitReply("d", WAIT);
    assertFastLaunch(server);
    return server.tree();
  }

  @Test
  void claudeCodesOpeningIsServedIn2026WithoutAHandshake() throws Exception {
    try (JarProcess server = start(api.baseUrl())) {
      server.send(request("server-discover-probe-1", "server/discover", ""));
      JsonNode discover = server.awaitReply("server-discover-probe-1", WAIT).path("result");
      assertEquals("[\"2026-07-28\"]", discover.path("supportedVersions").toString());
      assertEquals("complete", discover.path("resultType").asText());
      assertFastLaunch(server);

      server.send(request(0, "tools/list", ""));
      JsonNode list = server.awaitReply(0, WAIT).path("result");
      assertEquals("execute_code", list.at("/tools/0/name").asText());
      assertTrue(list.has("ttlMs") && list.has("cacheScope"));

      server.send(
          call(1, "print(6 * 7)", ",\"claudecode/toolUseId\":\"toolu_01\",\"progressToken\":7"));
      JsonNode result = server.awaitReply(1, WAIT).path("result");
      assertEquals("complete", result.path("resultType").asText());
      assertFalse(result.path("isError").asBoolean(true));
      assertEquals("42\n", result.at("/structuredContent/stdout").asText());
      assertEquals(
          "cinch-mcp", result.at("/_meta/io.modelcontextprotocol~1serverInfo/name").asText());
      int replyAt = server.received().indexOf(server.awaitReply(1, WAIT));
      List<JsonNode> progress =
          server.received().stream()
              .filter(m -> "notifications/progress".equals(m.path("method").asText()))
              .toList();
      assertFalse(progress.isEmpty(), "no progress on the request's token");
      assertEquals(7, progress.get(0).at("/params/progressToken").asInt());
      assertTrue(server.received().indexOf(progress.get(progress.size() - 1)) < replyAt);
      assertTrue(
          server.received().stream()
              .noneMatch(m -> "notifications/message".equals(m.path("method").asText())),
          "no log message for a request that set no log level");
      server.closeCleanly();
    }
  }

  @Test
  void aDiscoverAnsweredAtStartLeavesWhatFollowsItToTheServer() throws Exception {
    try (JarProcess server = start(api.baseUrl())) {
      // One write, as a client that does not wait: the early answer must take the first line only.
      server.send(
          request("probe", "server/discover", "")
              + "\n"
              + request(0, "tools/list", "")
              + "\n"
              + call(1, "print(6 * 7)", ""));
      assertEquals("complete", server.awaitReply("probe", WAIT).at("/result/resultType").asText());
      assertEquals("execute_code", server.awaitReply(0, WAIT).at("/result/tools/0/name").asText());
      assertEquals(
          "42\n", server.awaitReply(1, WAIT).at("/result/structuredContent/stdout").asText());
      assertEquals(3, server.received().stream().filter(m -> m.has("id")).count());
      server.closeCleanly();
    }
  }

  /** The fast launch's child JVM, once it runs. */
  private static ProcessHandle child(JarProcess server) throws InterruptedException {
    assertFastLaunch(server);
    return server.process().toHandle().children().findFirst().orElseThrow();
  }

  /** What the launcher told its child of stdin's first line, read from the child's environment. */
  private static String handedOver(ProcessHandle child) throws IOException {
    String environ = Files.readString(Path.of("/proc/" + child.pid() + "/environ"));
    return Stream.of(environ.split("\0"))
        .filter(v -> v.startsWith(FirstLineHandOver.VARIABLE + "="))
        .map(v -> v.substring(FirstLineHandOver.VARIABLE.length() + 1))
        .findFirst()
        .orElse("(not set)");
  }

  private static String commandLine(ProcessHandle process) throws IOException {
    return Files.readString(Path.of("/proc/" + process.pid() + "/cmdline"));
  }

  @Test
  void aWaitingDiscoverIsAnsweredByTheLauncherAndOnlyThere() throws Exception {
    try (JarProcess server = start(api.baseUrl())) {
      server.send(request("server-discover-probe-1", "server/discover", ""));
      assertEquals(
          "complete",
          server.awaitReply("server-discover-probe-1", WAIT).at("/result/resultType").asText());
      assertEquals("answered", handedOver(child(server)));

      // A second discover is the child's to answer, and it answers with the same bytes.
      server.send(request("server-discover-probe-1", "server/discover", ""));
      Await.until(() -> server.stdoutLines().size() == 2, WAIT, "the child's answer");
      assertEquals(server.stdoutLines().get(0), server.stdoutLines().get(1));
      server.send(call(1, "print(6 * 7)", ""));
      assertEquals(
          "42\n", server.awaitReply(1, WAIT).at("/result/structuredContent/stdout").asText());
      server.closeCleanly();
    }
  }

  @Test
  void aDiscoverWrittenInTwoPartsIsStillAnsweredOnce() throws Exception {
    try (JarProcess server = start(api.baseUrl())) {
      String discover = request("probe", "server/discover", "") + "\n";
      int cut = discover.length() / 2;
      server.sendRaw(discover.substring(0, cut).getBytes(StandardCharsets.UTF_8));
      // A client slow to finish its line: the launcher, up by then, waits on half of it.
      Await.stall(Duration.ofMillis(500), "a client that writes its first line in two parts");
      server.sendRaw(discover.substring(cut).getBytes(StandardCharsets.UTF_8));
      assertEquals("complete", server.awaitReply("probe", WAIT).at("/result/resultType").asText());
      server.send(request(0, "tools/list", ""));
      assertEquals("execute_code", server.awaitReply(0, WAIT).at("/result/tools/0/name").asText());
      assertEquals(2, server.stdoutLines().size(), server.stdoutLines().toString());
      server.closeCleanly();
    }
  }

  @Test
  void aFirstCallIsHandedToTheChildOutOfOtherUsersSight() throws Exception {
    String secret = "print('a private program " + UUID.randomUUID() + "')";
    try (JarProcess server = start(api.baseUrl())) {
      server.send(call(1, secret, ""));
      JsonNode result = server.awaitReply(1, WAIT).path("result");
      assertEquals("complete", result.path("resultType").asText(), result.toString());
      ProcessHandle child = child(server);
      assertTrue(handedOver(child).startsWith("read:"), handedOver(child));
      for (ProcessHandle process : List.of(server.process().toHandle(), child)) {
        assertFalse(
            commandLine(process).contains("private program"),
            "a command line, which every user can read, holds the program: " + process.pid());
      }
      assertTrue(api.bodies().get(0).contains(JarProcess.JSON.writeValueAsString(secret)));
      server.closeCleanly();
    }
  }

  @Test
  void aFirstLineLongerThanTheLauncherReadsReachesTheApiWhole() throws Exception {
    String code = "print(42)\n#" + "abcdefghij".repeat(10_000); // 100 KB, past the launcher's 16
    try (JarProcess server = start(api.baseUrl())) {
      server.send(call(1, code, ""));
      JsonNode result = server.awaitReply(1, WAIT).path("result");
      assertFalse(result.path("isError").asBoolean(true), result.toString());
      assertTrue(
          api.bodies().get(0).contains(JarProcess.JSON.writeValueAsString(code)),
          "the code the API got is not the code sent");
      server.closeCleanly();
    }
  }

  @Test
  void aFirst2025InitializeIsHandedToTheChildWhole() throws Exception {
    try (JarProcess server = start(api.baseUrl())) {
      JsonNode init = initialize2025(server, "2025-06-18");
      assertEquals("2025-06-18", init.path("protocolVersion").asText(), init.toString());
      assertTrue(handedOver(child(server)).startsWith("read:"));
      assertServes2025Call(server, 1);
      server.closeCleanly();
    }
  }

  @Test
  void aFirstDiscoverInAnotherVersionIsRefusedAsAnyRequestIs() throws Exception {
    try (JarProcess server = start(api.baseUrl())) {
      server.send(
          "{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"server/discover\",\"params\":{"
              + "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2027-01-01\","
              + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}");
      JsonNode error = server.awaitReply("p", WAIT).path("error");
      assertEquals(-32022, error.path("code").asInt());
      assertEquals("[\"2026-07-28\"]", error.at("/data/supported").toString());
      server.send(request("q", "server/discover", ""));
      assertEquals("complete", server.awaitReply("q", WAIT).at("/result/resultType").asText());
      server.assertProtocolClean();
    }
  }

  @Test
  void aVersionNotServedIsRefusedOnEveryRequestAndTheNextRightOneIsServed() throws Exception {
    try (JarProcess server = start(api.baseUrl())) {
      String wrong = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2027-01-01\"}";
      for (String id : List.of("a", "b", "c")) {
        server.send(
            "{\"jsonrpc\":\"2.0\",\"id\":\""
                + id
                + "\",\"method\":\"tools/list\",\"params\":{"
                + wrong
                + "}}");
        JsonNode error = server.awaitReply(id, WAIT).path("error");
        assertEquals(-32022, error.path("code").asInt());
        assertEquals("2027-01-01", error.at("/data/requested").asText());
        assertEquals("[\"2026-07-28\"]", error.at("/data/supported").toString());
      }
      server.send(request("d", "tools/list", ""));
      assertEquals("complete", server.awaitReply("d", WAIT).at("/result/resultType").asText());
      server.send(
          "{\"jsonrpc\":\"2.0\",\"id\":\"e\",\"method\":\"tools/list\",\"params\":{\"_meta\":"
              + "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}}");
      JsonNode missing = server.awaitReply("e", WAIT).path("error");
      assertEquals(-32602, missing.path("code").asInt());
      assertTrue(missing.path("message").asText().contains("clientCapabilities"));
      server.assertProtocolClean();
    }
  }

  @Test
  void aCancelledCallAbortsItsRequestAndNothingMoreIsWrittenForIt() throws Exception {
    try (HangingApi hanging = new HangingApi()) {
      Map<String, String> env = new java.util.HashMap<>(JarProcess.envFor(hanging.baseUrl()));
      env.put("CINCH_TIMEOUT_MS", "2500");
      try (JarProcess server = JarProcess.startAsUser(jar, home, env)) {
        server.send(call("c", "print('never answered')", ",\"progressToken\":\"c-progress\""));
        assertTrue(hanging.awaitRequest(20), "the request never reached the API");
        // Its first progress (sent on its way to the API) is read before the cancellation, so that
        // a busy test reader cannot count it as one written after.
        server.await(
            m -> "c-progress".equals(m.at("/params/progressToken").asText()),
            WAIT,
            "the call's first progress");
        server.send(cancel("c"));
        assertTrue(hanging.awaitHangUp(10), "the HTTP request was not aborted");
        int atCancel = server.received().size();
        // The API never answers this one either: it times out after 2.5 s, longer than the
        // progress interval (2 s), so a tick of the cancelled call would have come by then.
        server.send(call("after", "print(1)", ""));
        assertTrue(server.awaitReply("after", WAIT).at("/result/isError").asBoolean());
        server.closeStdin();
        assertEquals(0, server.waitForExit(WAIT));
        List<JsonNode> later = server.received().subList(atCancel, server.received().size());
        server.assertNoReplyTo("c", "a cancelled call must get no reply");
        assertTrue(
            later.stream()
                .noneMatch(m -> "c-progress".equals(m.at("/params/progressToken").asText())),
            "no progress after the cancellation: " + later);
        server.assertProtocolClean();
      }
    }
  }

  @Test
  void aProbeThenInitializeIsA2025SessionOnTheSameProcess() throws Exception {
    try (JarProcess server = start(api.baseUrl())) {
      server.send(request("probe", "server/discover", ""));
      server.awaitReply("probe", WAIT);
      JsonNode init = initialize2025(server, "2025-11-25");
      assertEquals("2025-11-25", init.path("protocolVersion").asText());
      assertServes2025Call(server, 5);
      server.assertProtocolClean();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"2025-11-25", "2025-06-18", "2025-03-26"})
  void each2025RevisionIsStillNegotiatedAndServed(String version) throws Exception {
    try (JarProcess server = start(api.baseUrl())) {
      assertEquals(version, initialize2025(server, version).path("protocolVersion").asText());
      assertServes2025Call(server, 1);
      server.closeCleanly();
    }
  }

  @Test
  void theEndOfInputStillAnswersA2026CallInFlight() throws Exception {
    try (JarProcess server = start(api.baseUrl())) {
      server.send(call(9, "slow1500", ""));
      server.closeStdin();
      assertEquals("complete", server.awaitReply(9, WAIT).at("/result/resultType").asText());
      assertEquals(0, server.waitForExit(WAIT));
      server.assertProtocolClean();
    }
  }

  @Test
  void sigtermWithACallRunningStopsItAtOnceAndTheWholeTreeEnds() throws Exception {
    try (HangingApi hanging = new HangingApi();
        JarProcess server = start(hanging.baseUrl())) {
      discoverOnAFastLaunch(server);
      server.send(call("running", "print('never answered')", ""));
      assertTrue(hanging.awaitRequest(20), "the request never reached the API");
      List<ProcessHandle> tree = server.tree();
      assertTrue(server.process().toHandle().destroy()); // SIGTERM to the launcher only
      server.waitForExit(WAIT);
      assertAllEnded(tree);
      assertTrue(hanging.awaitHangUp(10), "the HTTP request was not aborted");
      server.assertNoReplyTo("running", "nothing is written for a call stopped by the signal");
      server.assertProtocolClean();
    }
  }

  @Test
  void sigintWhenIdleEndsTheWholeTree() throws Exception {
    // A JVM started with SIGINT ignored keeps ignoring it (HotSpot then installs no handler), and a
    // background job of a non-interactive shell has it ignored: such a run cannot test SIGINT.
    // Clients start servers with the default (Node's spawn resets every signal).
    assumeFalse(
        Processes.ignoresSignal(ProcessHandle.current().pid(), 2),
        "SIGINT is ignored in this process tree; start the build another way (setsid -f, say)");
    try (JarProcess server = start(api.baseUrl())) {
      List<ProcessHandle> tree = discoverOnAFastLaunch(server);
      Process kill =
          new ProcessBuilder("kill", "-INT", Long.toString(server.process().pid())).start();
      assertEquals(0, kill.waitFor());
      server.waitForExit(WAIT);
      assertAllEnded(tree);
      server.assertProtocolClean();
    }
  }

  @Test
  void aStopNeedsNoKillCommandToEndAtOnce() throws Exception {
    // No kill on the PATH: each JVM must end itself by SIGKILL through a handle on one of its
    // threads. Spawning kill would fail, and the launcher would halt after HotSpot's wait for its
    // thread waiting on the child, with the stop's status (143) instead.
    Path noTools = Files.createDirectories(root.resolve("no-tools"));
    Map<String, String> env = new HashMap<>(JarProcess.envFor(api.baseUrl()));
    env.put("PATH", noTools.toString());
    try (JarProcess server = JarProcess.startAsUser(jar, home, env)) {
      List<ProcessHandle> tree = discoverOnAFastLaunch(server);
      assertTrue(server.process().toHandle().destroy()); // SIGTERM
      assertEquals(137, server.waitForExit(WAIT), "ended by its own SIGKILL");
      assertAllEnded(tree);
      server.assertProtocolClean();
    }
  }

  @Test
  void aLauncherKilledOutrightTakesItsChildWithIt() throws Exception {
    try (JarProcess server = start(api.baseUrl())) {
      List<ProcessHandle> tree = discoverOnAFastLaunch(server);
      assertTrue(server.process().toHandle().destroyForcibly()); // SIGKILL, the launcher alone
      // stdin stays open, as Claude Code leaves it: the child must notice its launcher is gone.
      assertAllEnded(tree);
    }
  }
}
