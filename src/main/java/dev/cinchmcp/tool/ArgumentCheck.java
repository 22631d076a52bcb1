package dev.cinchmcp.tool;

import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.ProgramInput;
import java.util.ArrayList;
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
              + quoted(unknown)
              + ": execute_code accepts only \"code\" (required), \"language\", \"stdin\","
              + " \"files\" and \"args\".");
    }
    Object code = args.get("code");
    if (code == null) {
      throw refuse("\"code\" is missing: pass the complete program to run as a string.");
    }
    if (!(code instanceof String text)) {
      throw mustBe("\"code\"", "a string holding the program", code, ".");
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
      throw mustBe("\"language\"", "the string \"python\" or \"javascript\"", language, ".");
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
      throw mustBe(
          "\"stdin\"", "a string (the text the program reads on standard input)", stdin, ".");
    }
    // Like the code, input travels as UTF-8: half of a surrogate pair cannot, so say where it is.
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
      throw mustBe(
          "\"args\"", "an array of strings (the program's command-line arguments)", value, ".");
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
        throw mustBe(
            "\"args\" item " + i,
            "a string",
            list.get(i),
            ": pass every argument as text, e.g. \"3\".");
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
          value,
          ".");
    }
    if (map.size() > ProgramInput.MAX_FILES) {
      throw refuse(
          "\"files\" has %d entries; at most %d files are allowed.",
          map.size(), ProgramInput.MAX_FILES);
    }
    Map<String, String> files = new LinkedHashMap<>();
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      String path = String.valueOf(entry.getKey());
      String wrong = FilePathRule.problem(path);
      if (wrong != null) {
        throw refuse("\"files\" path \"" + shorten(path) + "\" " + wrong);
      }
      if (!(entry.getValue() instanceof String text)) {
        throw mustBe(
            "\"files\" entry \"" + shorten(path) + "\"",
            "the file's text as a string",
            entry.getValue(),
            ".");
      }
      String where = "In the entry \"" + shorten(path) + "\": ";
      sendable("files", path, where);
      sendable("files", text, where);
      files.put(path, text);
    }
    String clash = FilePathRule.fileAndFolder(files.keySet());
    if (clash != null) {
      throw refuse("\"files\" " + clash);
    }
    return files;
  }

  private static void sendable(String argument, String text, String where) {
    String bad = loneSurrogate(argument, text);
    if (bad != null) {
      throw refuse(where + bad);
    }
  }

  /**
   * A lone surrogate has no UTF-8 form (cinch would send {@code ?}, local could not write the
   * file), so it is refused with its place. NUL passes: Python refuses it itself, clearly.
   */
  private static String loneSurrogate(String argument, String code) {
    int line = 1;
    int column = 1;
    for (int i = 0; i < code.length(); i++) {
      char c = code.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < code.length()
          && Character.isLowSurrogate(code.charAt(i + 1))) {
        i++;
        column++;
        continue;
      }
      if (Character.isSurrogate(c)) {
        return String.format(
            Locale.ROOT,
            "\"%s\" holds a lone surrogate (U+%04X) at line %d, column %d (character %d):"
                + " half of a UTF-16 pair is not text and cannot be sent. Remove it or write the"
                + " whole character (or an escape such as \\u%04X inside a string literal).",
            argument,
            (int) c,
            line,
            column,
            i + 1,
            (int) c);
      }
      if (c == '\n') {
        line++;
        column = 1;
      } else {
        column++;
      }
    }
    return null;
  }

  /** The total size rule; names the largest part, which is the one to shrink. */
  private static void tooLarge(ProgramInput input) {
    long total = 0;
    long largest = -1;
    String largestName = null;
    if (input.stdin() != null) {
      largest = total = utf8Length(input.stdin());
      largestName = "\"stdin\"";
    }
    for (Map.Entry<String, String> file : input.files().entrySet()) {
      long size = utf8Length(file.getKey()) + utf8Length(file.getValue());
      total += size;
      if (size > largest) {
        largest = size;
        largestName = "\"files\" entry \"" + shorten(file.getKey()) + "\"";
      }
    }
    for (String arg : input.args()) {
      total += utf8Length(arg);
    }
    if (total > ProgramInput.MAX_TOTAL_BYTES) {
      throw refuse(
          "\"stdin\", \"files\" and \"args\" hold %,d bytes of UTF-8 together; at most %,d (4 MB)"
              + " are allowed. The largest is %s (%,d bytes). Pass less data, or have the program"
              + " generate or sample it.",
          total, ProgramInput.MAX_TOTAL_BYTES, largestName, largest);
    }
  }

  /** A refusal whose message is {@code format} filled in (numbers in the root locale). */
  private static Refused refuse(String format, Object... values) {
    return new Refused(values.length == 0 ? format : String.format(Locale.ROOT, format, values));
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

  /** "{@code what} must be {@code expected}, not a number", then {@code ending}. */
  private static Refused mustBe(String what, String expected, Object value, String ending) {
    return refuse(what + " must be " + expected + ", not " + typeName(value) + ending);
  }

  private static String typeName(Object value) {
    if (value instanceof Number) {
      return "a number";
    }
    if (value instanceof Boolean) {
      return "a boolean";
    }
    if (value instanceof Map) {
      return "an object";
    }
    if (value instanceof List) {
      return "an array";
    }
    return "a " + value.getClass().getSimpleName();
  }

  /** The length of {@code s} in UTF-8, without encoding it. */
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
