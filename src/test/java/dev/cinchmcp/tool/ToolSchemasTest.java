package dev.cinchmcp.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.cinchmcp.backend.ProgramInput;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.SandboxFacts;
import dev.cinchmcp.backend.StreamCapture;
import dev.cinchmcp.text.CappedText;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The tool's schemas, checked with a real JSON Schema validator (the server itself ships none, see
 * BuiltInSchemaCheck): both are valid 2020-12 schemas, every structured result conforms to the
 * output schema, and the hand-written argument check agrees with the input schema.
 */
class ToolSchemasTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final SchemaRegistry REGISTRY =
      SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

  private static JsonNode node(Object value) {
    return JSON.valueToTree(value);
  }

  private static List<Error> againstMetaSchema(Map<String, Object> schema) {
    Schema meta =
        REGISTRY.getSchema(SchemaLocation.of(SpecificationVersion.DRAFT_2020_12.getDialectId()));
    return meta.validate(node(schema));
  }

  private static List<Error> validate(Map<String, Object> schema, Object instance) {
    return REGISTRY.getSchema(node(schema)).validate(node(instance));
  }

  @Test
  void theMetaSchemaCheckCanFail() {
    // So that the two checks below are not empty: a schema with a wrongly typed keyword is refused.
    assertFalse(againstMetaSchema(Map.of("type", "object", "required", "code")).isEmpty());
  }

  @Test
  void inputSchemaIsAValidObjectSchema() {
    assertEquals(List.of(), againstMetaSchema(ToolSchemas.input(SandboxFacts.SERVICE)));
    assertEquals(
        "object",
        ToolSchemas.input(SandboxFacts.SERVICE).get("type"),
        "MCP requires an object input schema");
  }

  @Test
  void outputSchemaIsAValidObjectSchema() {
    assertEquals(List.of(), againstMetaSchema(ToolSchemas.output()));
    assertEquals("object", ToolSchemas.output().get("type"));
  }

  static Stream<Arguments> runs() {
    String big = "x".repeat(CappedText.LIMIT + 5);
    return Stream.of(
        Arguments.of(
            "normal",
            new RunResult(StreamCapture.of("4\n"), StreamCapture.of(""), 0, false, 287L, "cinch")),
        Arguments.of(
            "failed",
            new RunResult(
                StreamCapture.of(""), StreamCapture.of("Traceback"), 1, false, 12L, "cinch")),
        Arguments.of(
            "truncated",
            new RunResult(StreamCapture.of(big), StreamCapture.of(big), 0, false, 9_000L, "cinch")),
        Arguments.of(
            "null exitCode and duration", new RunResult(null, null, null, false, null, "cinch")),
        Arguments.of(
            "timed out",
            new RunResult(StreamCapture.of("partial"), null, 137, true, 10_000L, "local")),
        Arguments.of(
            "huge lengths",
            new RunResult(
                new CappedText("a", "b", 5_000_000_000L, 4_999_999_998L, 7, true),
                null,
                -1,
                false,
                Long.MAX_VALUE,
                "cinch")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("runs")
  void everyStructuredResultConformsToTheOutputSchema(String what, RunResult run) {
    Map<String, Object> structured =
        new ResultView(SandboxFacts.SERVICE).structured(run, ProgramInput.NONE);

    assertEquals(List.of(), validate(ToolSchemas.output(), structured));
    // And the same after a trip through JSON, as the client will see it.
    assertEquals(
        List.of(),
        REGISTRY
            .getSchema(node(ToolSchemas.output()))
            .validate(JSON.valueToTree(JSON.convertValue(structured, Map.class))));
  }

  @Test
  void outputSchemaRefusesAResultMissingAFieldOrCarryingAnExtraOne() {
    Map<String, Object> structured =
        new LinkedHashMap<>(
            new ResultView(SandboxFacts.SERVICE)
                .structured(
                    new RunResult(StreamCapture.of("4"), null, 0, false, 1L, "cinch"),
                    ProgramInput.NONE));
    Map<String, Object> missing = new LinkedHashMap<>(structured);
    missing.remove("backend");
    Map<String, Object> extra = new LinkedHashMap<>(structured);
    extra.put("surprise", 1);
    Map<String, Object> wrongType = new LinkedHashMap<>(structured);
    wrongType.put("exitCode", "0");

    assertFalse(validate(ToolSchemas.output(), missing).isEmpty());
    assertFalse(validate(ToolSchemas.output(), extra).isEmpty());
    assertFalse(validate(ToolSchemas.output(), wrongType).isEmpty());
  }

  static Stream<Arguments> argumentSets() {
    Map<String, Object> nullLanguage = new HashMap<>();
    nullLanguage.put("code", "print(1)");
    nullLanguage.put("language", null);
    return Stream.of(
        Arguments.of(Map.of("code", "print(1)")),
        Arguments.of(Map.of("code", "print(1)", "language", "python")),
        Arguments.of(Map.of("code", "console.log(1)", "language", "javascript")),
        Arguments.of(Map.of()),
        Arguments.of(Map.of("code", "")),
        Arguments.of(Map.of("code", 42)),
        Arguments.of(Map.of("code", List.of("print(1)"))),
        Arguments.of(Map.of("code", "x", "language", "ruby")),
        Arguments.of(Map.of("code", "x", "language", "Python")),
        Arguments.of(Map.of("code", "x", "language", 3)),
        Arguments.of(Map.of("code", "x", "timeout", 5)),
        // (A lone surrogate in code is refused too, which no JSON Schema can express.)
        Arguments.of(Map.of("language", "python")),
        Arguments.of(
            Map.of(
                "code",
                "x",
                "stdin",
                "text",
                "files",
                Map.of("data/input.csv", "a,b\n"),
                "args",
                List.of("a b"))),
        Arguments.of(Map.of("code", "x", "stdin", 3)),
        Arguments.of(Map.of("code", "x", "files", "data.csv")),
        Arguments.of(Map.of("code", "x", "files", Map.of("a.txt", 1))),
        Arguments.of(Map.of("code", "x", "files", List.of("a.txt"))),
        Arguments.of(Map.of("code", "x", "args", "a b")),
        Arguments.of(Map.of("code", "x", "args", List.of("a", 2))),
        Arguments.of(Map.of("code", "x", "args", java.util.Collections.nCopies(257, "a"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("argumentSets")
  void argumentCheckAgreesWithTheInputSchema(Map<String, Object> arguments) {
    boolean schemaAccepts = validate(ToolSchemas.input(SandboxFacts.SERVICE), arguments).isEmpty();
    ArgumentCheck.Outcome outcome = ArgumentCheck.check(arguments);

    assertEquals(
        schemaAccepts,
        outcome.problem() == null,
        "schema and check disagree: " + outcome.problem());
    if (schemaAccepts) {
      assertNull(outcome.problem());
      assertTrue(outcome.program() != null);
    }
  }
}
