package dev.cinchmcp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cinchmcp.testkit.FakeCinchApi;
import dev.cinchmcp.testkit.JarProcess;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Thousands of hostile lines (random bytes, cut-off JSON, deep nesting, huge numbers, wrong types
 * in every field) interleaved with valid calls: every valid call is answered correctly, the server
 * is alive at the end, and its stdout is still nothing but JSON-RPC. The seed is printed, so a
 * failure can be replayed with -Dfuzz.seed=N.
 */
class FuzzIT {

  private static final int HOSTILE_LINES = 4000;
  private static final int VALID_EVERY = 20;

  @RegisterExtension final FakeCinchApi api = new FakeCinchApi().answering(FakeCinchApi.OK_RUN);

  /** -Dfuzz.seed, else a new seed; printed, so a failure can be replayed. */
  private static long seed(String label) {
    long seed = Long.getLong("fuzz.seed", System.nanoTime());
    System.out.println(label + ": " + seed);
    return seed;
  }

  /**
   * The recommended launch, initialized: its smaller thread stacks are where a deeply nested
   * message would hurt.
   */
  private JarProcess startInitialized() throws Exception {
    return JarProcess.startFast(JarProcess.envFor(api.baseUrl())).initialized();
  }

  /** The server still answers a ping; then it ends as a client ends it, cleanly. */
  private static void assertAliveThenEndsCleanly(JarProcess jar) throws Exception {
    jar.send("{\"jsonrpc\":\"2.0\",\"id\":\"alive\",\"method\":\"ping\"}");
    jar.awaitReply("alive", Duration.ofSeconds(20));
    assertTrue(jar.process().isAlive());
    jar.closeCleanly(); // exit 0 within 30 s, nothing but JSON-RPC on stdout
  }

  /** Lines for the server, sent as one write once a batch passes {@code bytes}: a fast client. */
  private static final class Batches {
    private final JarProcess jar;
    private final int bytes;
    private final ByteArrayOutputStream batch = new ByteArrayOutputStream();

    Batches(JarProcess jar, int bytes) {
      this.jar = jar;
      this.bytes = bytes;
    }

    void line(byte[] line) throws IOException {
      batch.write(line);
      batch.write('\n');
      if (batch.size() > bytes) {
        send();
      }
    }

    void send() throws IOException {
      jar.sendRaw(batch.toByteArray());
      batch.reset();
    }
  }

  @Test
  void hostileLinesNeverStopTheServerOrCorruptStdout() throws Exception {
    long seed = seed("FuzzIT seed");
    HostileLines hostile = new HostileLines(new Random(seed));
    try (JarProcess jar = startInitialized()) {
      int valid = 0;
      Batches batches = new Batches(jar, 256 * 1024);
      for (int i = 0; i < HOSTILE_LINES; i++) {
        batches.line(hostile.next());
        if (i % VALID_EVERY == 0) {
          batches.line(
              JarProcess.call("valid-" + valid++, "print(6 * 7)").getBytes(StandardCharsets.UTF_8));
        }
      }
      batches.send();
      for (int v = 0; v < valid; v++) {
        JsonNode reply = jar.awaitReply("valid-" + v, Duration.ofSeconds(60));
        assertEquals(
            "42\n",
            reply.path("result").path("structuredContent").path("stdout").asText(),
            "valid call " + v + " (seed " + seed + ")");
      }
      assertAliveThenEndsCleanly(jar);
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

  /**
   * Hostile requests that all carry a readable id (each unique): every one gets exactly one answer,
   * a JSON-RPC error of the right kind or a result, and no answer holds Java text. The shapes of
   * issue 12: two messages on a line, invalid and overlong UTF-8, odd number ids, malformed
   * tools/call params, bad progress tokens and log levels, line separators in strings.
   */
  @Test
  void everyHostileRequestWithAnIdGetsExactlyOneCleanAnswer() throws Exception {
    long seed = seed("FuzzIT answers seed");
    AnswerableLines hostile = new AnswerableLines(new Random(seed));
    try (JarProcess jar = startInitialized()) {
      Batches batches = new Batches(jar, 128 * 1024);
      for (int i = 0; i < ANSWERABLE_LINES; i++) {
        batches.line(hostile.next());
      }
      batches.send();
      for (String id : hostile.ids) {
        JsonNode reply = jar.awaitReply(id, Duration.ofSeconds(60));
        String text = reply.toString();
        assertTrue(
            reply.has("result") || ANSWER_CODES.contains(reply.path("error").path("code").asInt()),
            "unexpected answer (seed " + seed + "): " + text);
        assertFalse(
            text.matches("(?s).*(java\\.|Exception|Cannot invoke|McpSchema|\\$).*"),
            "Java text in an answer (seed " + seed + "): " + text);
      }
      jar.send("{\"jsonrpc\":\"2.0\",\"id\":1e400,\"method\":\"ping\"}");
      assertAliveThenEndsCleanly(jar);
      for (String id : hostile.ids) {
        JsonNode wanted = JarProcess.JSON.valueToTree(id);
        long answers =
            jar.received().stream()
                .filter(m -> !m.has("method") && wanted.equals(m.get("id")))
                .count();
        assertEquals(1, answers, "answers to " + id + " (seed " + seed + ")");
      }
      assertTrue(
          jar.stdoutLines().stream().anyMatch(l -> l.contains("\"id\":1e400,")),
          "the id 1e400 is echoed as written");
      System.out.println(
          "FuzzIT: " + hostile.ids.size() + " hostile requests, each answered exactly once");
    }
  }

  private static final int ANSWERABLE_LINES = 2000;

  /** -32700 parse, -32600 invalid request, -32601 unknown method, -32602 bad params. */
  private static final java.util.Set<Integer> ANSWER_CODES =
      java.util.Set.of(-32700, -32600, -32601, -32602);

  /** Hostile lines whose requests all have unique, readable string ids, listed in {@link #ids}. */
  static final class AnswerableLines {
    final List<String> ids = new java.util.ArrayList<>();
    private final Random random;
    private int next;

    AnswerableLines(Random random) {
      this.random = random;
    }

    private String id() {
      String id = "h" + next++;
      ids.add(id);
      return id;
    }

    byte[] next() {
      return switch (random.nextInt(7)) {
        case 0 -> utf8(request(id(), "ping", null) + request(id(), "tools/list", null));
        case 1 -> withBadBytes();
        case 2 -> utf8(request(id(), "tools/call", malformedCallParams()));
        case 3 ->
            utf8(
                request(
                    id(),
                    "tools/call",
                    "{\"name\":\"execute_code\",\"arguments\":{\"code\":\"print(1)\"},"
                        + "\"_meta\":{\"progressToken\":"
                        + pick("{}", "[]", "1.5", "1e400", "true", "null")
                        + "}}"));
        case 4 ->
            utf8(
                request(
                    id(),
                    "logging/setLevel",
                    "{\"level\":" + pick("\"nope\"", "\"INFO\"", "3", "null", "[]") + "}"));
        case 5 ->
            // Raw line separators in a value the error message quotes back: written escaped.
            utf8(
                request(
                    id(),
                    pick("logging/setLevel", "tools/call"),
                    pick("{\"level\":\"a\u2028b\u2029c\u0085\"}", "{\"name\":\"t\u2028\u0085\"}")));
        default -> utf8(request(id(), "ping", null) + " x");
      };
    }

    private String malformedCallParams() {
      return pick(
          "null",
          "[]",
          "\"x\"",
          "{}",
          "{\"name\":\"execute_code\",\"arguments\":[1]}",
          "{\"name\":\"execute_code\",\"arguments\":\"x\"}",
          "{\"name\":\"execute_code\",\"arguments\":{},\"_meta\":\"x\"}",
          "{\"name\":[],\"arguments\":{}}");
    }

    /** A ping whose string holds bytes that are not UTF-8 (overlong, surrogates, stray). */
    private byte[] withBadBytes() {
      String[] bad = {"C0AF", "E080AF", "EDA080", "FF", "80", "F4908080", "C3"};
      byte[] b = java.util.HexFormat.of().parseHex(bad[random.nextInt(bad.length)]);
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      line.writeBytes(utf8("{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"params\":{\"x\":\""));
      line.writeBytes(b);
      line.writeBytes(utf8("\"}}"));
      // No id can be read from a line that is not UTF-8: the reply's id is null. Follow it with a
      // ping that must still be answered.
      line.write('\n');
      line.writeBytes(utf8(request(id(), "ping", null)));
      return line.toByteArray();
    }

    private static String request(String id, String method, String params) {
      return "{\"jsonrpc\":\"2.0\",\"id\":\""
          + id
          + "\",\"method\":\""
          + method
          + "\""
          + (params == null ? "" : ",\"params\":" + params)
          + "}";
    }

    private String pick(String... options) {
      return options[random.nextInt(options.length)];
    }

    private static byte[] utf8(String s) {
      return s.getBytes(StandardCharsets.UTF_8);
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
