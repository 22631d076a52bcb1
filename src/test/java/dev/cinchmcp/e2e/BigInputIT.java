package dev.cinchmcp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.cinchmcp.testkit.Await;
import dev.cinchmcp.testkit.JarProcess;
import dev.cinchmcp.testkit.TestHomes;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The stdio limits the server advertises, sent for real through a plain {@code java -jar} (which,
 * once its archive exists, is the fast launch with its sized heap): an 8 MiB line, 64 calls of 1 MB
 * of code at once, and 64 running with 1,024 waiting. All are answered and the server exits 0. And
 * where memory does run out (a heap made too small on purpose), the server says so on stderr and
 * exits 3, never 0.
 */
class BigInputIT {

  private static final String OK_BODY =
      "{\"stdout\":\"42\\n\",\"stderr\":\"\",\"exitCode\":0,\"timedOut\":false,\"durationMs\":5}";

  private HttpServer api;

  /** A fake API that reads and drops the whole body; "fake:sleep" in it holds the answer 1 s. */
  @BeforeEach
  void startApi() throws IOException {
    api = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 256);
    api.setExecutor(Executors.newFixedThreadPool(200));
    api.createContext(
        "/run",
        exchange -> {
          byte[] head = new byte[64];
          int n;
          try (InputStream body = exchange.getRequestBody()) {
            n = body.readNBytes(head, 0, head.length);
            body.transferTo(java.io.OutputStream.nullOutputStream());
          }
          if (new String(head, 0, Math.max(n, 0), StandardCharsets.UTF_8).contains("fake:sleep")) {
            try {
              Await.stall(Duration.ofSeconds(1), "a program that runs a second");
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          byte[] answer = OK_BODY.getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, answer.length);
          exchange.getResponseBody().write(answer);
          exchange.close();
        });
    api.start();
  }

  @AfterEach
  void stopApi() {
    api.stop(0);
  }

  private Map<String, String> env() {
    return Map.of(
        "CINCH_API_KEY",
        JarProcess.KEY,
        "CINCH_BASE_URL",
        "http://127.0.0.1:" + api.getAddress().getPort(),
        "CINCH_TIMEOUT_MS",
        "60000");
  }

  /** The plain launch, made sure to be the fast one: its archive exists, so it restarts itself. */
  private JarProcess plainFastLaunch() throws Exception {
    Path archives = TestHomes.shared().resolve(".cache/cinch-mcp/archives");
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (true) {
      JarProcess jar = JarProcess.start(env());
      jar.initialize();
      boolean fast =
          Stream.concat(Stream.of(jar.process().toHandle()), jar.process().toHandle().children())
              .anyMatch(
                  h -> h.info().commandLine().orElse("").contains("-Dcinch.faststart.child=true"));
      if (fast) {
        return jar;
      }
      jar.closeStdin();
      jar.waitForExit(Duration.ofSeconds(30));
      assertTrue(System.nanoTime() < deadline, "no archive appeared in " + archives);
      // The first start's trainer is making it.
      Await.holdsWithin(
          () -> hasArchive(archives), Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
    }
  }

  private static boolean hasArchive(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.anyMatch(f -> f.toString().endsWith(".jsa"));
    }
  }

  private static String code(String head, int padding) {
    return head + "\nprint(42)\n#" + "x".repeat(padding);
  }

  private static void assertAnswered(JsonNode reply) {
    assertTrue(
        reply.has("result") && !reply.at("/result/isError").asBoolean(),
        reply.toString().substring(0, Math.min(300, reply.toString().length())));
  }

  @Test
  void anEightMebibyteLineIsAnswered() throws Exception {
    try (JarProcess jar = plainFastLaunch()) {
      jar.send(JarProcess.call(1, code("", 8 * 1024 * 1024 - 200)));
      assertAnswered(jar.awaitReply(1, Duration.ofSeconds(60)));
      jar.closeStdin();
      assertEquals(0, jar.waitForExit(Duration.ofSeconds(30)), jar.stderr());
      jar.assertProtocolClean();
    }
  }

  @Test
  void sixtyFourCallsOfOneMegabyteRunAtOnce() throws Exception {
    try (JarProcess jar = plainFastLaunch()) {
      for (int i = 0; i < 64; i++) {
        jar.send(JarProcess.call(i, code("fake:sleep", 1_000_000)));
      }
      for (int i = 0; i < 64; i++) {
        assertAnswered(jar.awaitReply(i, Duration.ofSeconds(120)));
      }
      jar.closeStdin();
      assertEquals(0, jar.waitForExit(Duration.ofSeconds(30)), jar.stderr());
    }
  }

  @Test
  void aFullQueueIsAnsweredToTheLastCall() throws Exception {
    try (JarProcess jar = plainFastLaunch()) {
      int calls = 64 + 1024;
      for (int i = 0; i < calls; i++) {
        jar.send(JarProcess.call(i, code("fake:sleep", 15_000)));
      }
      for (int i = 0; i < calls; i++) {
        JsonNode reply = jar.awaitReply(i, Duration.ofSeconds(120));
        assertTrue(
            reply.has("result") || reply.at("/error/message").asText().contains("busy"),
            reply.toString());
      }
      jar.closeStdin();
      assertEquals(0, jar.waitForExit(Duration.ofSeconds(30)), jar.stderr());
    }
  }

  @Test
  void runningOutOfMemoryInTheFastLaunchExitsThreeAndSaysSo() throws Exception {
    // the last -Xmx wins
    assertOutOfMemoryEndsTheServer(
        JarProcess.startFast(env(), List.of("-Xmx64m")), "OutOfMemoryError");
  }

  @Test
  void runningOutOfMemoryInAPlainJvmExitsThreeAndSaysSo() throws Exception {
    // The user's own -Xmx: no restart, the server runs in this JVM with only its own guard.
    assertOutOfMemoryEndsTheServer(
        JarProcess.start(env(), List.of("-Xmx40m")), "cinch-mcp: out of memory");
  }

  private static void assertOutOfMemoryEndsTheServer(JarProcess started, String said)
      throws Exception {
    try (JarProcess jar = started) {
      jar.initialize();
      try {
        for (int i = 0; i < 64; i++) {
          jar.send(JarProcess.call(i, code("fake:sleep", 1_000_000)));
        }
      } catch (IOException serverGone) {
        // It may end while the calls are still being written: that is what is tested here.
      }
      int exit = jar.waitForExit(Duration.ofSeconds(120));
      assertEquals(3, exit, "exit status after OutOfMemoryError; stderr:\n" + jar.stderr());
      assertTrue(jar.stderr().contains(said), jar.stderr());
      jar.assertProtocolClean();
    }
  }
}
