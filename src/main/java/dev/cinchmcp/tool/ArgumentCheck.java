package dev.cinchmcp.tool;

import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.ProgramInput;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Checks execute_code's arguments and turns them into a {@link Program}, or says exactly which
 * field is wrong and what is accepted. It stands in for the SDK's JSON Schema validator, which
 * costs a fifth of a second at start-up to check two fields.
 */
final class ArgumentCheck {

  private static final Set<String> KNOWN = Set.of("code", "language", "stdin", "files", "args");

  /** The outcome: a program to run with its input, or a message for the model. */
  record Outcome(Program program, ProgramInput input, String problem) {}

  private ArgumentCheck() {}

  static Outcome check(Map<String, Object> arguments) {
    Map<String, Object> args = arguments == null ? Map.of() : arguments;
    Set<String> unknown = new TreeSet<>(args.keySet());
    unknown.removeAll(KNOWN);
    if (!unknown.isEmpty()) {
      return problem(
          "unknown "
              + (unknown.size() == 1 ? "argument " : "arguments ")
              + quoted(unknown)
              + ": execute_code accepts only \"code\" (required), \"language\", \"stdin\","
              + " \"files\" and \"args\".");
    }
    Object code = args.get("code");
    if (code == null) {
      return problem("\"code\" is missing: pass the complete program to run as a string.");
    }
    if (!(code instanceof String text)) {
      return problem(mustBe("\"code\"", "a string holding the program", code) + ".");
    }
    if (text.isBlank()) {
      return problem("\"code\" is empty: pass the complete program to run.");
    }
    String badText = CodeText.problem("code", text);
    if (badText != null) {
      return problem(badText);
    }
    InputCheck.Result input = InputCheck.check(args);
    if (input.problem() != null) {
      return problem(input.problem());
    }
    Object language = args.get("language");
    if (language == null) {
      return new Outcome(new Program(text, Language.PYTHON), input.input(), null);
    }
    if (!(language instanceof String name)) {
      return problem(
          mustBe("\"language\"", "the string \"python\" or \"javascript\"", language) + ".");
    }
    return Language.fromWireName(name)
        .map(l -> new Outcome(new Program(text, l), input.input(), null))
        .orElseGet(
            () ->
                problem(
                    "\"language\" must be \"python\" or \"javascript\" (got \""
                        + shorten(name)
                        + "\"). Other languages are not available in the sandbox."));
  }

  private static Outcome problem(String message) {
    return new Outcome(null, null, "Invalid arguments: " + message + " Nothing was run.");
  }

  private static String quoted(Set<String> names) {
    StringBuilder sb = new StringBuilder();
    for (String n : names) {
      sb.append(sb.length() == 0 ? "" : ", ").append('"').append(shorten(n)).append('"');
    }
    return sb.toString();
  }

  static String shorten(String s) {
    return s.length() > 40 ? s.substring(0, 40) + "..." : s;
  }

  /** "{@code what} must be {@code expected}, not a number": an argument of the wrong type. */
  static String mustBe(String what, String expected, Object value) {
    return what + " must be " + expected + ", not " + typeName(value);
  }

  static String typeName(Object value) {
    if (value instanceof Number) {
      return "a number";
    }
    if (value instanceof Boolean) {
      return "a boolean";
    }
    if (value instanceof Map) {
      return "an object";
    }
    if (value instanceof java.util.List) {
      return "an array";
    }
    return "a " + value.getClass().getSimpleName();
  }
}
