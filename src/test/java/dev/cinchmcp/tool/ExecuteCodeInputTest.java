package dev.cinchmcp.tool;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cinchmcp.backend.CodeRunner;
import dev.cinchmcp.backend.SandboxFacts;
import dev.cinchmcp.backend.cinch.CinchApiRunner;
import dev.cinchmcp.testkit.FakeCinchApi;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * stdin, files and args through the tool's call handler and a real Cinch runner against WireMock:
 * what goes on the wire (today's exact bytes without them, a launcher with them), refusals that
 * send nothing, and the result's line saying what was given.
 */
class ExecuteCodeInputTest {

  private static final String OK_RUN =
      "{\"stdout\":\"4\\n\",\"stderr\":\"\",\"exitCode\":0,\"timedOut\":false,\"durationMs\":5}";
  private static final ObjectMapper JSON = new ObjectMapper();

  @RegisterExtension
  static final FakeCinchApi api =
      new FakeCinchApi()
          .stub(
              wireMock ->
                  wireMock.stubFor(
                      post(urlEqualTo("/run"))
                          .willReturn(aResponse().withStatus(200).withBody(OK_RUN))));

  private static CinchApiRunner runner;

  @BeforeAll
  static void start() {
    runner = api.runner(Duration.ofSeconds(5));
  }

  private static CallToolResult call(Map<String, Object> arguments) {
    CodeRunner r = runner;
    return new ExecuteCodeTool(r, api.runners().timers(), SandboxFacts.SERVICE)
        .specification()
        .callHandler()
        .apply(null, new CallToolRequest(ExecuteCodeTool.NAME, arguments, null))
        .block(Duration.ofSeconds(20));
  }

  private static String text(CallToolResult result) {
    return ((TextContent) result.content().get(0)).text();
  }

  private static String onlyBody() {
    var requests = api.findAll(postRequestedFor(urlEqualTo("/run")));
    assertEquals(1, requests.size());
    return new String(requests.get(0).getBody(), StandardCharsets.UTF_8);
  }

  static Stream<Arguments> withoutInput() {
    Map<String, Object> nulls = new HashMap<>();
    nulls.put("stdin", null);
    nulls.put("files", null);
    nulls.put("args", null);
    return Stream.of(
        Arguments.of("none of the three", Map.of()),
        Arguments.of("all null", nulls),
        Arguments.of("all empty", Map.of("stdin", "", "files", Map.of(), "args", List.of())));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("withoutInput")
  void withoutInputTheRequestIsTodaysByteForByte(String what, Map<String, Object> extra) {
    Map<String, Object> arguments = new HashMap<>(extra);
    arguments.put("code", "print(\"héllo\", 2+2)\n");
    arguments.put("language", "python");

    CallToolResult result = call(arguments);

    assertFalse(result.isError(), text(result));
    assertEquals("{\"code\":\"print(\\\"héllo\\\", 2+2)\\n\",\"language\":\"python\"}", onlyBody());
    assertTrue(text(result).startsWith("Exit code: 0"), text(result));
  }

  @Test
  void withInputALauncherInTheSameLanguageCarriesEverything() throws Exception {
    Map<String, Object> files = new LinkedHashMap<>();
    files.put("data/input.csv", "a,b\n1,2\n");
    files.put("ünï.txt", "\"quoted\" \\ 😀");
    for (String language : List.of("python", "javascript")) {
      api.wireMock().resetRequests();
      String code = language.equals("python") ? "print(1)" : "console.log(1)";
      CallToolResult result =
          call(
              Map.of(
                  "code", code,
                  "language", language,
                  "stdin", "line 1\nline 2",
                  "files", files,
                  "args", List.of("a b", "it's")));
      assertFalse(result.isError(), text(result));

      JsonNode body = JSON.readTree(onlyBody());
      assertEquals(2, body.size(), "only code and language: " + body);
      assertEquals(language, body.get("language").asText());
      JsonNode given = payload(body.get("code").asText());
      String extension = language.equals("python") ? ".py" : ".js";
      assertEquals("/tmp/program/main" + extension, given.get("program").asText());
      assertEquals("/tmp/work", given.get("workDir").asText());
      assertEquals(code, given.get("code").asText());
      assertEquals("line 1\nline 2", given.get("stdin").asText());
      assertEquals(
          JSON.readTree(
              "[[\"data/input.csv\",\"a,b\\n1,2\\n\"],[\"ünï.txt\",\"\\\"quoted\\\" \\\\ 😀\"]]"),
          given.get("files"));
      assertEquals(JSON.readTree("[\"a b\",\"it's\"]"), given.get("args"));
    }
  }

  /** The launcher's one base64 literal, decoded. */
  private static JsonNode payload(String launcher) throws Exception {
    Matcher m = Pattern.compile("[\"']([A-Za-z0-9+/=]{16,})[\"']").matcher(launcher);
    assertTrue(m.find(), launcher);
    return JSON.readTree(Base64.getDecoder().decode(m.group(1)));
  }

  @Test
  void theResultSaysWhatWasGiven() {
    CallToolResult result =
        call(
            Map.of(
                "code",
                "print(1)",
                "stdin",
                "x".repeat(1204),
                "files",
                Map.of("data/input.csv", "a,b\n"),
                "args",
                List.of("-v", "--n=3")));

    assertFalse(result.isError(), text(result));
    assertTrue(
        text(result)
            .startsWith(
                "Input: stdin 1,204 chars; files: data/input.csv (4 chars) in /tmp/work; args: 2\n"
                    + "Exit code: 0"),
        text(result));
  }

  @Test
  void aLongListOfFilesIsCountedNotListed() {
    Map<String, Object> files = new LinkedHashMap<>();
    IntStream.range(0, 12).forEach(i -> files.put("f" + i + ".txt", "x"));
    String text = text(call(Map.of("code", "print(1)", "files", files)));
    assertTrue(text.startsWith("Input: files: f0.txt (1 chars), "), text);
    assertTrue(text.contains("f9.txt (1 chars), and 2 more in /tmp/work\n"), text);
  }

  static Stream<Arguments> refusals() {
    Map<String, Object> many = new HashMap<>();
    IntStream.range(0, 300).forEach(i -> many.put("f" + i, ""));
    return Stream.of(
        Arguments.of("files", Map.of("/etc/passwd", "x"), "\"/etc/passwd\" is absolute"),
        Arguments.of("files", Map.of("C:\\x.csv", "x"), "Windows drive"),
        Arguments.of("files", Map.of("data/../../x", "x"), "\"data/../../x\" contains \"..\""),
        Arguments.of("files", many, "300 entries; at most 256"),
        Arguments.of("stdin", "x".repeat(4_000_001), "at most 4,000,000 (4 MB)"),
        Arguments.of("args", List.of(1), "item 0 must be a string"),
        Arguments.of("stdin", Map.of(), "must be a string"));
  }

  @ParameterizedTest(name = "{0}: {2}")
  @MethodSource("refusals")
  void everyRefusalIsAnErrorNamingArgumentAndRuleAndNothingIsSent(
      String name, Object value, String rule) {
    CallToolResult result = call(Map.of("code", "print(1)", name, value));

    assertTrue(result.isError());
    assertTrue(text(result).startsWith("Invalid arguments: \"" + name + "\""), text(result));
    assertTrue(text(result).contains(rule), text(result));
    assertTrue(text(result).endsWith("Nothing was run."), text(result));
    api.verify(0, anyRequestedFor(anyUrl()));
  }
}
