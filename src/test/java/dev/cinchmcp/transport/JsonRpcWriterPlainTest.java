package dev.cinchmcp.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.util.RawValue;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The hand-written JSON of plain messages against Jackson's own, byte for byte, through {@link
 * JsonRpcWriter}: what a client reads must not depend on which of the two wrote it.
 */
class JsonRpcWriterPlainTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final ObjectWriter JACKSON =
      MAPPER.writer().with(new JsonRpcWriter.LineSafeEscapes());

  static Stream<Object> plainMessages() {
    Map<String, Object> withNull = new LinkedHashMap<>();
    withNull.put("a", null);
    withNull.put("b", List.of());
    List<Object> mixed = new ArrayList<>(Arrays.asList(null, true, false, "", 0, -1));
    Map<String, Object> structured = new LinkedHashMap<>();
    structured.put("stdout", "42\n");
    structured.put("stderr", "Traceback (most recent call last):\n  \"x\" \\ \t\u0000\u001f");
    structured.put("exitCode", 1);
    structured.put("timedOut", false);
    structured.put("durationMs", 123L);
    structured.put("stdoutTruncated", true);
    Map<String, Object> text = new LinkedHashMap<>();
    text.put("type", "text");
    text.put("text", "line\u2028sep\u2029par\u0085nel \uD83D\uDE00 \u00e9\u4e2d");
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("content", List.of(text));
    result.put("isError", true);
    result.put("structuredContent", structured);
    Map<String, Object> reply = new LinkedHashMap<>();
    reply.put("jsonrpc", "2.0");
    reply.put("id", new RawValue("1e400"));
    reply.put("result", result);
    Object deep = "bottom";
    for (int i = 0; i < 15; i++) {
      deep = List.of(Map.of("k", deep));
    }
    return Stream.of(
        reply,
        Map.of("jsonrpc", "2.0", "id", "\"quoted\" id", "result", Map.of()),
        Map.of("id", new RawValue("-0.50")),
        withNull,
        mixed,
        List.of(Integer.MIN_VALUE, Integer.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE),
        List.of(0.1, -0.0, 1e300, 4.9e-324, 100.0, Double.NaN, Double.POSITIVE_INFINITY),
        Map.of("", "empty key", "k\u2028\"", "escaped key"),
        deep,
        "a lone string",
        42);
  }

  /** Left to Jackson whole: what its settings or serialisers decide, not plain values. */
  static Stream<Object> notPlainMessages() {
    Map<Integer, String> numberKeys = new HashMap<>();
    numberKeys.put(1, "one");
    Object tooDeep = "bottom";
    for (int i = 0; i < 40; i++) {
      tooDeep = List.of(tooDeep);
    }
    return Stream.of(
        Map.of("big", new BigDecimal("1E+3")),
        Map.of("big", new BigInteger("123456789012345678901234567890")),
        Map.of("float", 1.5f),
        Map.of("short", (short) 3),
        numberKeys,
        Map.of("array", new String[] {"a"}),
        Map.of("record", new McpSchema.TextContent(null, "hi", null)),
        MAPPER.createObjectNode().put("node", 1),
        tooDeep);
  }

  @ParameterizedTest
  @MethodSource("plainMessages")
  void plainValuesAreWrittenAsJacksonWritesThem(Object message) throws Exception {
    assertNotNull(
        new JsonRpcWriter(MAPPER, OutputStream.nullOutputStream()).plain(message),
        "plain: " + message);
    assertEquals(jackson(message), written(message));
  }

  @ParameterizedTest
  @MethodSource("notPlainMessages")
  void anythingElseIsLeftToJacksonAndComesOutTheSame(Object message) throws Exception {
    assertNull(
        new JsonRpcWriter(MAPPER, OutputStream.nullOutputStream()).plain(message),
        "not plain: " + message);
    assertEquals(jackson(message), written(message));
  }

  private static String jackson(Object message) throws Exception {
    // Bytes, as the writer has always had Jackson make them (its char writer escapes differently).
    return new String(JACKSON.writeValueAsBytes(message), StandardCharsets.UTF_8) + "\n";
  }

  private static String written(Object message) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertTrue(new JsonRpcWriter(MAPPER, out).write(message));
    return out.toString(StandardCharsets.UTF_8);
  }
}
