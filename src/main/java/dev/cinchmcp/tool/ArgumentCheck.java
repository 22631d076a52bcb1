package dev.cinchmcp.tool;

import static java.util.stream.Collectors.joining;

import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.ProgramInput;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads execute_code's arguments once into a {@link Program} with its {@link ProgramInput}, or says
 * exactly which field is wrong and what is accepted. It stands in for the SDK's JSON Schema
 * validator, which costs a fifth of a second at start-up to check two fields. Empty {@code stdin},
 * {@code files} and {@code args} ({@code ""}, {@code {}}, {@code []}) and nulls count as not given.
 */
final class ArgumentCheck {

  private static final Set<String> KNOWN = Set.of("code", "language", "stdin", "files", "args");

  /** The outcome: a program to run with its input, or a message for the model. */
  record Outcome(Program program, String problem) {
    ProgramInput input() {
      return program == null ? null : program.input();
    }
  }

  /** A refusal on the way through; its message is the end of the sentence for the model. */
  private static final class Refused extends RuntimeException {
    Refused(String message) {
      super(message, null, false, false);
    }
  }

  private ArgumentCheck() {}

  static Outcome check(Map<String, Object> arguments) {
    try {
      return new Outcome(program(arguments == null ? Map.of() : arguments), null);
    } catch (Refused refused) {
      return new Outcome(null, "Invalid arguments: " + refused.getMessage() + " Nothing was run.");
    }
  }

  private static Program program(Map<String, Object> args) {
    Set<String> unknown = new TreeSet<>(args.keySet());
    unknown.removeAll(KNOWN);
    if (!unknown.isEmpty()) {
      throw refuse(
          "unknown "
              + (unknown.size() == 1 ? "argument " : "arguments ")
              + unknown.stream().map(n -> '"' + shorten(n) + '"').collect(joining(", "))
              + ": execute_code accepts only \"code\" (required), \"language\", \"stdin\","
              + " \"files\" and \"args\".");
    }
    Object code = args.get("code");
    if (code == null) {
      throw refuse("\"code\" is missing: pass the complete program to run as a string.");
    }
    if (!(code instanceof String text)) {
      throw mustBe("\"code\"", "a string holding the program", code);
    }
    if (text.isBlank()) {
      throw refuse("\"code\" is empty: pass the complete program to run.");
    }
    sendable("code", text, "");
    ProgramInput input = input(args);
    Object language = args.get("language");
    if (language == null) {
      return new Program(text, Language.PYTHON, input);
    }
    if (!(language instanceof String name)) {
      throw mustBe("\"language\"", "the string \"python\" or \"javascript\"", language);
    }
    return new Program(
        text,
        Language.fromWireName(name)
            .orElseThrow(
                () ->
                    refuse(
                        "\"language\" must be \"python\" or \"javascript\" (got \""
                            + shorten(name)
                            + "\"). Other languages are not available in the sandbox.")),
        input);
  }

  /** {@code stdin}, {@code files} and {@code args}, against the limits of {@link ProgramInput}. */
  private static ProgramInput input(Map<String, Object> arguments) {
    Object stdin = arguments.get("stdin");
    if (stdin != null && !(stdin instanceof String)) {
      throw mustBe("\"stdin\"", "a string (the text the program reads on standard input)", stdin);
    }
    String text = (String) stdin;
    if (text != null) {
      sendable("stdin", text, "");
    }
    List<String> args = args(arguments.get("args"));
    Map<String, String> files = files(arguments.get("files"));
    ProgramInput input =
        new ProgramInput(text == null || text.isEmpty() ? null : text, files, args);
    tooLarge(input);
    return input.isEmpty() ? ProgramInput.NONE : input;
  }

  private static List<String> args(Object value) {
    if (value == null) {
      return List.of();
    }
    if (!(value instanceof List<?> list)) {
      throw mustBe("\"args\"", "an array of strings (the program's command-line arguments)", value);
    }
    if (list.size() > ProgramInput.MAX_ARGS) {
      throw refuse(
          "\"args\" has %d items; at most %d are allowed. Pass data in \"stdin\" or \"files\".",
          list.size(), ProgramInput.MAX_ARGS);
    }
    List<String> args = new ArrayList<>(list.size());
    long bytes = 0;
    for (int i = 0; i < list.size(); i++) {
      if (!(list.get(i) instanceof String arg)) {
        throw refuse(
            "\"args\" item "
                + i
                + " must be a string, not "
                + typeName(list.get(i))
                + ": pass every argument as text, e.g. \"3\".");
      }
      if (arg.indexOf('\0') >= 0) {
        throw refuse(
            "\"args\" item " + i + " holds a NUL character, which no command-line argument can.");
      }
      sendable("args", arg, "In item " + i + ": ");
      bytes += utf8Length(arg);
      args.add(arg);
    }
    if (bytes > ProgramInput.MAX_ARGS_BYTES) {
      throw refuse(
          "\"args\" hold %,d bytes; at most %,d are allowed. Arguments are for flags and"
              + " names: pass data in \"stdin\" or \"files\".",
          bytes, ProgramInput.MAX_ARGS_BYTES);
    }
    return args;
  }

  private static Map<String, String> files(Object value) {
    if (value == null) {
      return Map.of();
    }
    if (!(value instanceof Map<?, ?> map)) {
      throw mustBe(
          "\"files\"",
          "an object mapping relative paths to text, e.g. {\"data/input.csv\":"
              + " \"a,b\\n1,2\\n\"}",
          value);
    }
    if (map.size() > ProgramInput.MAX_FILES) {
      throw refuse(
          "\"files\" has %d entries; at most %d files are allowed.",
          map.size(), ProgramInput.MAX_FILES);
    }
    Map<String, String> files = new LinkedHashMap<>();
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      String path = String.valueOf(entry.getKey());
      String wrong = pathProblem(path);
      if (wrong != null) {
        throw refuse("\"files\" path \"" + shorten(path) + "\" " + wrong);
      }
      if (!(entry.getValue() instanceof String text)) {
        throw mustBe(
            "\"files\" entry \"" + shorten(path) + "\"",
            "the file's text as a string",
            entry.getValue());
      }
      String where = "In the entry \"" + shorten(path) + "\": ";
      sendable("files", path, where);
      sendable("files", text, where);
      files.put(path, text);
    }
    for (String path : files.keySet()) {
      for (int slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1)) {
        String folder = shorten(path.substring(0, slash));
        if (files.containsKey(path.substring(0, slash))) {
          throw refuse(
              "\"files\" paths \"%s\" and \"%s\" clash: \"%s\" cannot be both a file and a folder.",
              folder, shorten(path), folder);
        }
      }
    }
    return files;
  }

  /**
   * A lone surrogate has no UTF-8 form (cinch would send {@code ?}, local could not write the
   * file), so it is refused with its place. NUL passes: Python refuses it itself, clearly.
   */
  private static void sendable(String argument, String text, String where) {
    int line = 1;
    int column = 1;
    for (int i = 0; i < text.length(); i++, column++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw refuse(
            "%s\"%s\" holds a lone surrogate (U+%04X) at line %d, column %d (character %d):"
                + " half of a UTF-16 pair is not text and cannot be sent. Remove it or write the"
                + " whole character (or an escape such as \\u%04X inside a string literal).",
            where, argument, (int) c, line, column, i + 1, (int) c);
      } else if (c == '\n') {
        line++;
        column = 0;
      }
    }
  }

  /** The total size rule; names the largest part, which is the one to shrink. */
  private static void tooLarge(ProgramInput input) {
    List<Map.Entry<String, Long>> parts = new ArrayList<>();
    if (input.stdin() != null) {
      parts.add(Map.entry("\"stdin\"", utf8Length(input.stdin())));
    }
    input
        .files()
        .forEach(
            (path, text) ->
                parts.add(
                    Map.entry(
                        "\"files\" entry \"" + shorten(path) + "\"",
                        utf8Length(path) + utf8Length(text))));
    long total = parts.stream().mapToLong(Map.Entry::getValue).sum();
    total += input.args().stream().mapToLong(ArgumentCheck::utf8Length).sum();
    if (total > ProgramInput.MAX_TOTAL_BYTES) {
      var largest = Collections.max(parts, Map.Entry.comparingByValue());
      throw refuse(
          "\"stdin\", \"files\" and \"args\" hold %,d bytes of UTF-8 together; at most %,d (4 MB)"
              + " are allowed. The largest is %s (%,d bytes). Pass less data, or have the program"
              + " generate or sample it.",
          total, ProgramInput.MAX_TOTAL_BYTES, largest.getKey(), largest.getValue());
    }
  }

  /** What is wrong with {@code path}, as the end of a sentence, or null when it is fine. */
  private static String pathProblem(String path) {
    String example = " Give a path relative to the working directory, e.g. \"data/input.csv\".";
    if (path.isEmpty()) {
      return "is empty." + example;
    }
    if (path.length() > ProgramInput.MAX_PATH_CHARS) {
      return "is longer than " + ProgramInput.MAX_PATH_CHARS + " characters.";
    }
    if (path.chars().anyMatch(Character::isISOControl)) {
      return "holds a control character (a newline, tab or NUL, say); file names cannot.";
    }
    if (path.startsWith("/") || path.startsWith("~")) {
      return "is absolute: files are written under "
          + ProgramInput.WORK_DIR
          + ", so give a path relative to it."
          + example;
    }
    if (path.matches("^[A-Za-z]:.*") || path.startsWith("\\")) {
      return "is a Windows drive or network path: the sandbox is Linux." + example;
    }
    if (path.indexOf('\\') >= 0) {
      return "holds a backslash: separate folders with /, e.g. \"data/input.csv\".";
    }
    for (String part : path.split("/", -1)) {
      if (part.equals("..")) {
        return "contains \"..\": files must stay inside the working directory "
            + ProgramInput.WORK_DIR
            + ".";
      }
      if (part.isEmpty()) {
        return "has an empty part (a doubled, leading or trailing /)." + example;
      }
      if (part.equals(".")) {
        return "contains a \".\" part: write \"data/input.csv\", not \"./data/input.csv\".";
      }
      if (part.getBytes(StandardCharsets.UTF_8).length > ProgramInput.MAX_NAME_BYTES) {
        return "has a part longer than " + ProgramInput.MAX_NAME_BYTES + " bytes, too long a name.";
      }
    }
    return null;
  }

  /** A refusal whose message is {@code format} filled in (numbers in the root locale). */
  private static Refused refuse(String format, Object... values) {
    return new Refused(values.length == 0 ? format : String.format(Locale.ROOT, format, values));
  }

  static String shorten(String s) {
    return s.length() > 40 ? s.substring(0, 40) + "..." : s;
  }

  /** "{@code what} must be {@code expected}, not a number." */
  private static Refused mustBe(String what, String expected, Object value) {
    return refuse(what + " must be " + expected + ", not " + typeName(value) + ".");
  }

  private static String typeName(Object value) {
    return value instanceof Number
        ? "a number"
        : value instanceof Boolean
            ? "a boolean"
            : value instanceof Map
                ? "an object"
                : value instanceof List ? "an array" : "a " + value.getClass().getSimpleName();
  }

  /** Counted, not encoded: an input is measured before it is kept, and may be megabytes. */
  static long utf8Length(String s) {
    long n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        n += 1;
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        n += 4;
        i++;
      } else {
        n += 3;
      }
    }
    return n;
  }
}
