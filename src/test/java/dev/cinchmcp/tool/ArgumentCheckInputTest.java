package dev.cinchmcp.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.ProgramInput;
import dev.cinchmcp.testkit.GivenFiles;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The checks of stdin, files and args, through {@link ArgumentCheck} as the tool calls it: what is
 * accepted, and for each refusal that it names the argument, the path and the rule.
 */
class ArgumentCheckInputTest {

  private static ArgumentCheck.Outcome check(String name, Object value) {
    Map<String, Object> arguments = new HashMap<>();
    arguments.put("code", "print(1)");
    arguments.put(name, value);
    return ArgumentCheck.check(arguments);
  }

  private static String refused(String name, Object value) {
    ArgumentCheck.Outcome outcome = check(name, value);
    assertNull(outcome.program(), "refused, so nothing to run");
    String problem = outcome.problem();
    assertTrue(problem.startsWith("Invalid arguments: \"" + name + "\""), problem);
    assertTrue(problem.endsWith(" Nothing was run."), problem);
    return problem;
  }

  private static ProgramInput accepted(String name, Object value) {
    ArgumentCheck.Outcome outcome = check(name, value);
    assertNull(outcome.problem());
    return outcome.input();
  }

  @Test
  void withoutTheNewArgumentsThereIsNoInput() {
    assertEquals(ProgramInput.NONE, ArgumentCheck.check(Map.of("code", "print(1)")).input());
  }

  @Test
  void nullAndEmptyValuesCountAsNotGiven() {
    assertTrue(accepted("stdin", null).isEmpty());
    assertTrue(accepted("stdin", "").isEmpty());
    assertTrue(accepted("files", Map.of()).isEmpty());
    assertTrue(accepted("args", List.of()).isEmpty());
  }

  @Test
  void validInputIsKeptExactlyAndInOrder() {
    Map<String, String> files =
        GivenFiles.of(
            "z.txt",
            "last name, first given",
            "data/ünï 文件.csv",
            "a,b\n",
            "a/b/c/d/e.json",
            "{}",
            ".hidden",
            "");
    ProgramInput input = accepted("files", files);
    assertEquals(List.copyOf(files.keySet()), List.copyOf(input.files().keySet()));
    assertEquals("a,b\n", input.files().get("data/ünï 文件.csv"));

    assertEquals(" x\n", accepted("stdin", " x\n").stdin());
    assertEquals(List.of("a b", "", "\"q\""), accepted("args", List.of("a b", "", "\"q\"")).args());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "/etc/passwd                | is absolute",
        "~/notes.txt                | is absolute",
        "C:\\data\\x.csv            | Windows drive",
        "c:x.csv                    | Windows drive",
        "\\\\server\\share\\x.csv   | Windows drive or network path",
        "data\\x.csv                | holds a backslash",
        "../x.csv                   | contains \"..\"",
        "data/../../x.csv           | contains \"..\"",
        "data/..                    | contains \"..\"",
        "./data/x.csv               | contains a \".\" part",
        "data//x.csv                | has an empty part",
        "data/                      | has an empty part",
      })
  void badPathsAreRefusedWithPathAndRule(String path, String rule) {
    String problem = refused("files", Map.of(path, "x"));
    assertTrue(problem.contains("path \"" + path + "\""), problem);
    assertTrue(problem.contains(rule), problem);
  }

  @Test
  void emptyControlAndOverlongPathsAreRefused() {
    assertTrue(refused("files", Map.of("", "x")).contains("is empty"));
    assertTrue(refused("files", Map.of("a\nb", "x")).contains("control character"));
    assertTrue(refused("files", Map.of("a\0b", "x")).contains("control character"));
    assertTrue(refused("files", Map.of("a/".repeat(201) + "b", "x")).contains("longer than 400"));
    assertTrue(refused("files", Map.of("é".repeat(128), "x")).contains("longer than 255 bytes"));
  }

  @Test
  void aPathCannotBeBothAFileAndAFolder() {
    Map<String, Object> files = new LinkedHashMap<>();
    files.put("data", "x");
    files.put("data/x.csv", "y");
    String problem = refused("files", files);
    assertTrue(problem.contains("\"data\" and \"data/x.csv\" clash"), problem);
  }

  @Test
  void tooManyFilesAreRefused() {
    Map<String, Object> files = new HashMap<>();
    IntStream.range(0, ProgramInput.MAX_FILES + 1).forEach(i -> files.put("f" + i, ""));
    assertTrue(refused("files", files).contains("257 entries; at most 256"));
    files.remove("f0");
    assertEquals(ProgramInput.MAX_FILES, accepted("files", files).files().size());
  }

  @Test
  void tooMuchTextTogetherIsRefusedNamingTheLargestPart() {
    Map<String, Object> arguments = new HashMap<>();
    arguments.put("code", "print(1)");
    arguments.put("stdin", "s".repeat(1_000_000));
    arguments.put("files", Map.of("small.txt", "x", "data/big.csv", "é".repeat(1_500_001)));
    String problem = ArgumentCheck.check(arguments).problem();
    assertTrue(problem.startsWith("Invalid arguments: \"stdin\", \"files\" and \"args\""), problem);
    assertTrue(problem.contains("4,000,024 bytes"), problem);
    assertTrue(problem.contains("at most 4,000,000 (4 MB)"), problem);
    assertTrue(problem.contains("\"files\" entry \"data/big.csv\" (3,000,014 bytes)"), problem);
    // Exactly at the limit is fine.
    assertEquals(
        ProgramInput.MAX_TOTAL_BYTES, accepted("stdin", "s".repeat(4_000_000)).stdin().length());
  }

  @Test
  void wrongTypesAreNamed() {
    assertTrue(refused("stdin", 42).contains("must be a string"));
    assertTrue(refused("stdin", List.of("a")).contains("not an array"));
    assertTrue(refused("files", "data.csv").contains("must be an object mapping relative paths"));
    assertTrue(refused("files", List.of("a")).contains("not an array"));
    assertTrue(
        refused("files", Map.of("a.txt", 3)).contains("entry \"a.txt\" must be the file's text"));
    assertTrue(refused("args", "a b").contains("must be an array of strings"));
    assertTrue(refused("args", List.of("a", 3)).contains("item 1 must be a string, not a number"));
  }

  @Test
  void argumentsHaveTheirOwnLimits() {
    assertTrue(refused("args", List.of("a\0b")).contains("item 0 holds a NUL"));
    assertTrue(
        refused("args", java.util.Collections.nCopies(257, "a"))
            .contains("257 items; at most 256"));
    assertTrue(
        refused("args", List.of("x".repeat(64 * 1024 + 1)))
            .contains("65,537 bytes; at most 65,536"));
  }

  @Test
  void utf8LengthCountsBytes() {
    assertEquals(0, ArgumentCheck.utf8Length(""));
    assertEquals(1 + 2 + 3 + 4, ArgumentCheck.utf8Length("aé日😀"));
  }

  @Test
  void loneSurrogatesInAnyInputAreRefusedWithWhere() {
    String stdin = problem(Map.of("stdin", "ok\nab\ud800"));
    assertTrue(
        stdin.contains("\"stdin\" holds a lone surrogate (U+D800) at line 2, column 3"), stdin);
    String arg = problem(Map.of("args", List.of("fine", "x\udc00")));
    assertTrue(arg.contains("item 1") && arg.contains("\"args\" holds a lone surrogate"), arg);
    String file = problem(Map.of("files", Map.of("data/a.csv", "a,b\n\ud83d")));
    assertTrue(file.contains("data/a.csv") && file.contains("line 2, column 1"), file);
    String path = problem(Map.of("files", Map.of("a\ud800.txt", "x")));
    assertTrue(path.contains("\"files\" holds a lone surrogate"), path);
  }

  private static String problem(Map<String, Object> arguments) {
    Map<String, Object> withCode = new java.util.HashMap<>(arguments);
    withCode.put("code", "1");
    String problem = ArgumentCheck.check(withCode).problem();
    assertNotNull(problem, "refused: " + arguments);
    return problem;
  }
}
