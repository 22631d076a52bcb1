package dev.cinchmcp.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.SandboxFacts;
import dev.cinchmcp.backend.StreamCapture;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden files for the result view: each folder under {@code src/test/resources/result-view} holds
 * a run ({@code run.json}, see {@link ResultFixture}) and what the model is handed for it: {@code
 * text.txt} (the text content) and {@code structured.json} (the structured content, absent for a
 * failure with no run). Run with {@code -Dgolden.update=true} to rewrite the expected files after a
 * deliberate change, then read the diff.
 */
class ResultViewGoldenTest {

  static final Path ROOT = Path.of("src/test/resources/result-view");
  private static final boolean UPDATE = Boolean.getBoolean("golden.update");
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  static Stream<String> fixtures() throws IOException {
    try (Stream<Path> dirs = Files.list(ROOT)) {
      return dirs
          .filter(Files::isDirectory)
          .map(p -> p.getFileName().toString())
          .sorted()
          .toList()
          .stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fixtures")
  void resultMatchesItsGoldenFiles(String name) throws IOException {
    CallToolResult result = ResultFixture.load(ROOT.resolve(name)).result();

    String text = ((TextContent) result.content().get(0)).text();
    check(ROOT.resolve(name).resolve("text.txt"), text);
    Path structured = ROOT.resolve(name).resolve("structured.json");
    if (result.structuredContent() != null) {
      check(structured, JSON.writeValueAsString(result.structuredContent()) + "\n");
    } else {
      assertEquals(
          false, Files.exists(structured), "a failure with no run has no structured content");
    }
  }

  private static void check(Path expectedFile, String actual) throws IOException {
    if (UPDATE) {
      Files.writeString(expectedFile, actual, StandardCharsets.UTF_8);
      return;
    }
    assertEquals(
        Files.readString(expectedFile, StandardCharsets.UTF_8), actual, expectedFile.toString());
  }

  /** One fixture: a run (or an API failure's message) and how the view shows it. */
  record ResultFixture(RunResult run, String failure) {

    static ResultFixture load(Path dir) {
      try {
        JsonNode spec = new ObjectMapper().readTree(dir.resolve("run.json").toFile());
        if (spec.has("failure")) {
          return new ResultFixture(null, spec.get("failure").asText());
        }
        return new ResultFixture(
            new RunResult(
                StreamCapture.of(stream(spec.get("stdout"))),
                StreamCapture.of(stream(spec.get("stderr"))),
                spec.get("exitCode").isNull() ? null : spec.get("exitCode").asInt(),
                spec.get("timedOut").asBoolean(),
                spec.get("durationMs").isNull() ? null : spec.get("durationMs").asLong(),
                spec.get("backend").asText()),
            null);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    CallToolResult result() {
      return run == null ? ResultView.error(failure) : new ResultView(SandboxFacts.SERVICE).of(run);
    }

    /**
     * A stream is a string, or an array of pieces: strings, and {"repeat": s, "times": n}, so a
     * fixture of 60,000 characters stays readable.
     */
    private static String stream(JsonNode node) {
      if (node == null || node.isNull()) {
        return "";
      }
      if (node.isTextual()) {
        return node.asText();
      }
      StringBuilder sb = new StringBuilder();
      for (JsonNode piece : node) {
        if (piece.isTextual()) {
          sb.append(piece.asText());
        } else {
          sb.append(piece.get("repeat").asText().repeat(piece.get("times").asInt()));
        }
      }
      return sb.toString();
    }
  }
}
