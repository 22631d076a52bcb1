package dev.cinchmcp.e2e;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Thousands of hostile lines (random bytes, cut-off JSON, deep nesting, huge numbers, wrong types
 * in every field) interleaved with valid calls: every valid call is answered correctly, the server
 * is alive at the end, and its stdout is still nothing but JSON-RPC. The seed is printed, so a
 * failure can be replayed with -Dfuzz.seed=N.
 */
class FuzzIT {

  private static final int HOSTILE_LINES = 4000;
  private static final int VALID_EVERY = 20;

  private WireMockServer api;

  @BeforeEach
  void startApi() {
    api =
        new WireMockServer(WireMockConfiguration.options().dynamicPort().bindAddress("127.0.0.1"));
    api.start();
    api.stubFor(
        post(urlEqualTo("/run"))
            .willReturn(
                aResponse()
                    .withHeader("Content-Type", "application/json")
                    .withBody(
                        "{\"stdout\":\"42\\n\",\"stderr\":\"\",\"exitCode\":0,\"timedOut\":false,\"durationMs\":1}")));
  }

  @AfterEach
  void stopApi() {
    api.stop();
  }

  @Test
  void hostileLinesNeverStopTheServerOrCorruptStdout() throws Exception {
    long seed = Long.getLong("fuzz.seed", System.nanoTime());
    System.out.println("FuzzIT seed: " + seed);
    Random random = new Random(seed);
    HostileLines hostile = new HostileLines(random);
    // The recommended launch: its smaller thread stacks are where a deeply nested message would
    // hurt.
    try (JarProcess jar = JarProcess.startFast(JarProcess.envFor(api.baseUrl()))) {
      jar.initialize();
      int valid = 0;
      ByteArrayOutputStream batch = new ByteArrayOutputStream();
      for (int i = 0; i < HOSTILE_LINES; i++) {
        batch.write(hostile.next());
        batch.write('\n');
        if (i % VALID_EVERY == 0) {
          batch.write(
              JarProcess.call("valid-" + valid++, "print(6 * 7)").getBytes(StandardCharsets.UTF_8));
          batch.write('\n');
        }
        if (batch.size() > 256 * 1024) {
          jar.sendRaw(batch.toByteArray());
          batch.reset();
        }
      }
      jar.sendRaw(batch.toByteArray());
      for (int v = 0; v < valid; v++) {
        JsonNode reply = jar.awaitReply("valid-" + v, Duration.ofSeconds(60));
        assertEquals(
            "42\n",
            reply.path("result").path("structuredContent").path("stdout").asText(),
            "valid call " + v + " (seed " + seed + ")");
      }
      jar.send("{\"jsonrpc\":\"2.0\",\"id\":\"alive\",\"method\":\"ping\"}");
      jar.awaitReply("alive", Duration.ofSeconds(20));
      assertTrue(jar.process().isAlive());
      jar.closeStdin();
      assertEquals(0, jar.waitForExit(Duration.ofSeconds(30)));
      jar.assertProtocolClean();
      List<String> lines = jar.stdoutLines();
      System.out.println(
          "FuzzIT: "
              + HOSTILE_LINES
              + " hostile lines and "
              + valid
              + " valid calls sent; "
              + lines.size()
              + " messages received; all valid calls answered");
    }
  }

  /** Generates one hostile line at a time; never a newline inside a line. */
  static final class HostileLines {
    private final Random random;

    HostileLines(Random random) {
      this.random = random;
    }

    byte[] next() {
      String line =
          switch (random.nextInt(9)) {
            case 0 -> randomBytes();
            case 1 -> truncatedJson();
            case 2 -> deepNesting();
            case 3 -> hugeNumbers();
            case 4 -> wrongTypesInToolCall();
            case 5 -> wrongEnvelope();
            case 6 -> oddNotifications();
            case 7 -> "";
            default -> randomJsonValue(3);
          };
      return line == null
          ? randomBytes().getBytes(StandardCharsets.ISO_8859_1)
          : line.getBytes(StandardCharsets.UTF_8);
    }

    private String randomBytes() {
      byte[] b = new byte[random.nextInt(300)];
      random.nextBytes(b);
      for (int i = 0; i < b.length; i++) {
        if (b[i] == '\n') {
          b[i] = ' ';
        }
      }
      return new String(b, StandardCharsets.ISO_8859_1);
    }

    private String truncatedJson() {
      String whole = JarProcess.call("t" + random.nextInt(1000), "print('x')");
      return whole.substring(0, random.nextInt(whole.length()));
    }

    private String deepNesting() {
      int depth = 100 + random.nextInt(20_000);
      if (random.nextBoolean()) {
        // Well-formed and closed, inside the params of a real method, so that it gets past the
        // parser.
        int d = 50 + random.nextInt(1000);
        return "{\"jsonrpc\":\"2.0\",\"id\":\"deep"
            + random.nextInt(1000)
            + "\",\"method\":\"tools/call\",\"params\":"
            + "{\"name\":\"execute_code\",\"arguments\":{\"code\":"
            + "[".repeat(d)
            + "]".repeat(d)
            + "}}}";
      }
      char open = random.nextBoolean() ? '[' : '{';
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < depth; i++) {
        sb.append(open == '[' ? "[" : "{\"a\":");
      }
      return sb.toString();
    }

    private String hugeNumbers() {
      String n =
          switch (random.nextInt(4)) {
            case 0 -> "1" + "0".repeat(5000);
            case 1 -> "1e999999999";
            case 2 -> "-0.0000000000000000000000000000001e-400";
            default -> "123456789012345678901234567890";
          };
      return "{\"jsonrpc\":\"2.0\",\"id\":"
          + n
          + ",\"method\":\"tools/call\",\"params\":{\"name\":\"execute_code\","
          + "\"arguments\":{\"code\":\"print(1)\",\"language\":"
          + n
          + "}}}";
    }

    private String wrongTypesInToolCall() {
      String[] values = {
        "5", "true", "null", "[]", "{}", "\"\"", "\"x\"", "-1.5", "[1,2]", "{\"a\":{}}"
      };
      String v = values[random.nextInt(values.length)];
      String id = "\"f" + random.nextInt(1_000_000) + "\"";
      return switch (random.nextInt(8)) {
        case 0 ->
            "{\"jsonrpc\":\"2.0\",\"id\":"
                + id
                + ",\"method\":\"tools/call\",\"params\":"
                + v
                + "}";
        case 1 ->
            "{\"jsonrpc\":\"2.0\",\"id\":"
                + id
                + ",\"method\":\"tools/call\",\"params\":{\"name\":"
                + v
                + "}}";
        case 2 ->
            "{\"jsonrpc\":\"2.0\",\"id\":"
                + id
                + ",\"method\":\"tools/call\",\"params\":{\"name\":\"execute_code\",\"arguments\":"
                + v
                + "}}";
        case 3 ->
            "{\"jsonrpc\":\"2.0\",\"id\":"
                + id
                + ",\"method\":\"tools/call\",\"params\":{\"name\":\"execute_code\",\"arguments\":{\"code\":"
                + v
                + "}}}";
        case 4 ->
            "{\"jsonrpc\":\"2.0\",\"id\":"
                + id
                + ",\"method\":\"tools/call\",\"params\":{\"name\":\"execute_code\",\"arguments\":{\"code\":\"1\",\"language\":"
                + v
                + "}}}";
        case 5 ->
            "{\"jsonrpc\":\"2.0\",\"id\":"
                + id
                + ",\"method\":\"tools/call\",\"params\":{\"name\":\"execute_code\",\"arguments\":{\"code\":\"1\"},\"_meta\":"
                + v
                + "}}";
        case 6 ->
            "{\"jsonrpc\":\"2.0\",\"id\":"
                + id
                + ",\"method\":\"tools/list\",\"params\":"
                + v
                + "}";
        default ->
            "{\"jsonrpc\":\"2.0\",\"id\":"
                + id
                + ",\"method\":\"logging/setLevel\",\"params\":{\"level\":"
                + v
                + "}}";
      };
    }

    private String wrongEnvelope() {
      String[] lines = {
        "{\"jsonrpc\":2.0,\"id\":1,\"method\":\"ping\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":[1],\"method\":\"ping\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":\"r1\",\"result\":{}}",
        "{\"jsonrpc\":\"2.0\",\"id\":\"r2\",\"error\":{\"code\":\"x\"}}",
        "{\"jsonrpc\":\"2.0\",\"method\":\"\"}",
        "{\"jsonrpc\":\"2.0\",\"method\":null,\"id\":3}",
        "{\"jsonrpc\":\"2.0\"}",
        "{\"method\":\"tools/call\"}",
        "[" + JarProcess.call("batch", "print(1)") + "]",
      };
      return lines[random.nextInt(lines.length)];
    }

    private String oddNotifications() {
      String[] lines = {
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":{}}}",
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{}}",
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"valid-999999\"}}",
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/unknown\",\"params\":[1,2,3]}",
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":5}}",
      };
      return lines[random.nextInt(lines.length)];
    }

    private String randomJsonValue(int depth) {
      int kind = depth <= 0 ? random.nextInt(4) : random.nextInt(6);
      return switch (kind) {
        case 0 -> Integer.toString(random.nextInt());
        case 1 -> "\"s" + random.nextInt(100) + "\\u00e9\\ud83d\\ude00\"";
        case 2 -> random.nextBoolean() ? "true" : "null";
        case 3 -> Double.toString(random.nextGaussian() * 1e300);
        case 4 -> "[" + randomJsonValue(depth - 1) + "," + randomJsonValue(depth - 1) + "]";
        default ->
            "{\"jsonrpc\":"
                + randomJsonValue(depth - 1)
                + ",\"id\":"
                + randomJsonValue(depth - 1)
                + ",\"method\":"
                + randomJsonValue(depth - 1)
                + "}";
      };
    }
  }
}
