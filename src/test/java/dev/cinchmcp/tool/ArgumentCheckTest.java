package dev.cinchmcp.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ArgumentCheckTest {

  private static String problem(Map<String, Object> arguments) {
    ArgumentCheck.Outcome outcome = ArgumentCheck.check(arguments);
    assertNull(outcome.program(), "no program when the arguments are wrong");
    String p = outcome.problem();
    assertTrue(p.startsWith("Invalid arguments: "), p);
    assertTrue(p.endsWith("Nothing was run."), p);
    return p;
  }

  @Test
  void codeAloneIsPython() {
    ArgumentCheck.Outcome outcome = ArgumentCheck.check(Map.of("code", "print(1)"));
    assertNull(outcome.problem());
    assertEquals(new Program("print(1)", Language.PYTHON), outcome.program());
  }

  @Test
  void codeIsKeptExactly() {
    String code = "  print('a')\n\n";
    assertEquals(code, ArgumentCheck.check(Map.of("code", code)).program().code());
  }

  @Test
  void javascriptIsAccepted() {
    assertEquals(
        Language.JAVASCRIPT,
        ArgumentCheck.check(Map.of("code", "1", "language", "javascript")).program().language());
  }

  @Test
  void nullLanguageMeansPython() {
    Map<String, Object> args = new HashMap<>();
    args.put("code", "print(1)");
    args.put("language", null);
    assertEquals(Language.PYTHON, ArgumentCheck.check(args).program().language());
  }

  @Test
  void nullArgumentsSayCodeIsMissing() {
    assertTrue(problem(null).contains("\"code\" is missing"));
  }

  @Test
  void missingCodeIsNamed() {
    assertTrue(problem(Map.of("language", "python")).contains("\"code\" is missing"));
  }

  @Test
  void explicitNullCodeIsMissing() {
    Map<String, Object> args = new HashMap<>();
    args.put("code", null);
    assertTrue(problem(args).contains("\"code\" is missing"));
  }

  @ParameterizedTest(name = "\"{0}\"")
  @ValueSource(strings = {"", " ", "\n\t  \n"})
  void emptyOrBlankCodeIsRefused(String code) {
    assertTrue(problem(Map.of("code", code)).contains("\"code\" is empty"));
  }

  @Test
  void nonStringCodeNamesItsType() {
    assertTrue(problem(Map.of("code", 42)).contains("not a number"));
    assertTrue(problem(Map.of("code", true)).contains("not a boolean"));
    assertTrue(problem(Map.of("code", Map.of("a", 1))).contains("not an object"));
    assertTrue(problem(Map.of("code", List.of("print(1)"))).contains("not an array"));
  }

  @ParameterizedTest(name = "\"{0}\"")
  @ValueSource(strings = {"ruby", "Python", "PYTHON", "js", "node", "python3", ""})
  void unknownLanguageListsTheSupportedOnes(String language) {
    String p = problem(Map.of("code", "x", "language", language));
    assertTrue(p.contains("\"python\""), p);
    assertTrue(p.contains("\"javascript\""), p);
    assertTrue(p.contains("(got \"" + language + "\")"), p);
  }

  @Test
  void veryLongLanguageIsShortenedInTheMessage() {
    String p = problem(Map.of("code", "x", "language", "z".repeat(10_000)));
    assertTrue(p.length() < 300, p);
  }

  @Test
  void nonStringLanguageNamesItsType() {
    String p = problem(Map.of("code", "x", "language", 3));
    assertTrue(p.contains("\"language\" must be the string"), p);
    assertTrue(p.contains("a number"), p);
  }

  @Test
  void unknownPropertiesAreNamedAndTheKnownOnesListed() {
    String one = problem(Map.of("code", "x", "timeout", 5));
    assertTrue(one.contains("unknown argument \"timeout\""), one);
    assertTrue(
        one.contains("\"code\" (required), \"language\", \"stdin\", \"files\" and \"args\""), one);

    String two = problem(Map.of("code", "x", "input", "", "argv", List.of()));
    assertTrue(two.contains("unknown arguments \"argv\", \"input\""), two);
  }

  @Test
  void aLoneSurrogateInCodeIsRefusedWithItsLineAndColumn() {
    String p = problem(Map.of("code", "a = 1\nb = '\uDC00'\n"));
    assertTrue(
        p.contains("\"code\" holds a lone surrogate (U+DC00) at line 2, column 6 (character 12)"),
        p);
  }

  @Test
  void aPairBeforeTheLoneSurrogateCountsAsOneColumn() {
    String p = problem(Map.of("code", "'\uD83D\uDE00\uD800'"));
    assertTrue(p.contains("line 1, column 3 (character 4)"), p);
  }

  @Test
  void pairsAndNulArePassedOn() {
    assertEquals(
        "s = '\uD83D\uDE00\u0000'",
        ArgumentCheck.check(Map.of("code", "s = '\uD83D\uDE00\u0000'")).program().code());
  }
}
