package dev.cinchmcp.tool;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.SandboxFacts;
import dev.cinchmcp.backend.StreamCapture;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * No answer to a tools/call exceeds about 100 KB on the wire, whatever the program prints: every
 * golden fixture, and floods of each kind of costly character, serialised as the transport writes a
 * reply (one JSON-RPC response, by a plain Jackson mapper, as UTF-8).
 */
class AnswerSizeTest {

  /** "About 100 KB". */
  static final int BOUND = 100 * 1024;

  private static final ObjectMapper JSON = new ObjectMapper();

  static Stream<Arguments> fixtures() throws Exception {
    return ResultViewGoldenTest.fixtures()
        .map(
            name ->
                Arguments.of(
                    name,
                    ResultViewGoldenTest.ResultFixture.load(ResultViewGoldenTest.ROOT.resolve(name))
                        .result()));
  }

  static Stream<Arguments> floods() {
    ResultView view = new ResultView(SandboxFacts.SERVICE);
    return Stream.of(
            "x",
            "\n",
            "\"",
            "\\",
            "\u0001",
            "\u001b",
            "\u0085",
            "\u2028",
            "\u00e9",
            "\u6f22",
            "\uD83D\uDE00",
            "\uD800",
            "\u0001\u0002",
            "\u001b[0m",
            "\u001b[0mx",
            "\r")
        .flatMap(
            unit ->
                Stream.of(0, 1)
                    .map(
                        exit -> {
                          String flood = unit.repeat(200_000 / unit.length());
                          RunResult run =
                              new RunResult(
                                  StreamCapture.of(flood),
                                  StreamCapture.of(flood),
                                  exit,
                                  false,
                                  5L,
                                  "cinch");
                          return Arguments.of(
                              "200,000 of U+"
                                  + Integer.toHexString(unit.charAt(0))
                                  + " (length "
                                  + unit.length()
                                  + "), exit "
                                  + exit,
                              view.of(run));
                        }));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({"fixtures", "floods"})
  void theAnswerOnTheWireStaysWithinTheBound(String name, CallToolResult result) throws Exception {
    long size = wireSize(result);

    assertTrue(size <= BOUND, name + ": " + size + " bytes on the wire");
  }

  /**
   * The reply's size as a line of UTF-8, counting U+2028, U+2029 and U+0085 as the six-byte escapes
   * the transport sends them as (so the bound holds whether or not the writer escapes them yet).
   */
  static long wireSize(CallToolResult result) throws Exception {
    String line = JSON.writeValueAsString(new JSONRPCResponse("2.0", 1, result, null));
    long size = line.getBytes(StandardCharsets.UTF_8).length + 1;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '\u2028' || c == '\u2029') {
        size += 3;
      } else if (c == '\u0085') {
        size += 4;
      }
    }
    return size;
  }
}
