package dev.cinchmcp.tool;

import dev.cinchmcp.backend.ProgramInput;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Checks the optional {@code stdin}, {@code files} and {@code args} arguments against the limits of
 * {@link ProgramInput}, before anything is sent. A refusal names the argument, the path or item,
 * and the rule. Empty values ({@code ""}, {@code {}}, {@code []}) and nulls count as not given.
 */
final class InputCheck {

  /** The input, or a message for the model (without the "Invalid arguments" frame). */
  record Result(ProgramInput input, String problem) {}

  private InputCheck() {}

  static Result check(Map<String, Object> arguments) {
    Object stdin = arguments.get("stdin");
    if (stdin != null && !(stdin instanceof String)) {
      return refuse(
          ArgumentCheck.mustBe(
                  "\"stdin\"", "a string (the text the program reads on standard input)", stdin)
              + ".");
    }
    // Like the code, input travels as UTF-8: half of a surrogate pair cannot, so say where it is.
    String badStdin = stdin == null ? null : CodeText.problem("stdin", (String) stdin);
    if (badStdin != null) {
      return refuse(badStdin);
    }
    Result args = args(arguments.get("args"));
    if (args.problem() != null) {
      return args;
    }
    Result files = files(arguments.get("files"));
    if (files.problem() != null) {
      return files;
    }
    String text = stdin == null || ((String) stdin).isEmpty() ? null : (String) stdin;
    ProgramInput input = new ProgramInput(text, files.input().files(), args.input().args());
    String tooLarge = tooLarge(input);
    return tooLarge == null ? new Result(input, null) : refuse(tooLarge);
  }

  private static Result args(Object value) {
    if (value == null) {
      return new Result(ProgramInput.NONE, null);
    }
    if (!(value instanceof List<?> list)) {
      return refuse(
          ArgumentCheck.mustBe(
                  "\"args\"", "an array of strings (the program's command-line arguments)", value)
              + ".");
    }
    if (list.size() > ProgramInput.MAX_ARGS) {
      return refuse(
          "\"args\" has %d items; at most %d are allowed. Pass data in \"stdin\" or \"files\".",
          list.size(), ProgramInput.MAX_ARGS);
    }
    List<String> args = new ArrayList<>(list.size());
    long bytes = 0;
    for (int i = 0; i < list.size(); i++) {
      if (!(list.get(i) instanceof String arg)) {
        return refuse(
            ArgumentCheck.mustBe("\"args\" item " + i, "a string", list.get(i))
                + ": pass every argument as text, e.g. \"3\".");
      }
      if (arg.indexOf('\0') >= 0) {
        return refuse(
            "\"args\" item " + i + " holds a NUL character, which no command-line argument can.");
      }
      String badText = CodeText.problem("args", arg);
      if (badText != null) {
        return refuse("In item " + i + ": " + badText);
      }
      bytes += utf8Length(arg);
      args.add(arg);
    }
    if (bytes > ProgramInput.MAX_ARGS_BYTES) {
      return refuse(
          "\"args\" hold %,d bytes; at most %,d are allowed. Arguments are for flags and"
              + " names: pass data in \"stdin\" or \"files\".",
          bytes, ProgramInput.MAX_ARGS_BYTES);
    }
    return new Result(new ProgramInput(null, Map.of(), args), null);
  }

  private static Result files(Object value) {
    if (value == null) {
      return new Result(ProgramInput.NONE, null);
    }
    if (!(value instanceof Map<?, ?> map)) {
      return refuse(
          ArgumentCheck.mustBe(
                  "\"files\"",
                  "an object mapping relative paths to text, e.g. {\"data/input.csv\":"
                      + " \"a,b\\n1,2\\n\"}",
                  value)
              + ".");
    }
    if (map.size() > ProgramInput.MAX_FILES) {
      return refuse(
          "\"files\" has %d entries; at most %d files are allowed.",
          map.size(), ProgramInput.MAX_FILES);
    }
    Map<String, String> files = new LinkedHashMap<>();
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      String path = String.valueOf(entry.getKey());
      String wrong = FilePathRule.problem(path);
      if (wrong != null) {
        return refuse("\"files\" path \"" + ArgumentCheck.shorten(path) + "\" " + wrong);
      }
      if (!(entry.getValue() instanceof String text)) {
        return refuse(
            ArgumentCheck.mustBe(
                    "\"files\" entry \"" + ArgumentCheck.shorten(path) + "\"",
                    "the file's text as a string",
                    entry.getValue())
                + ".");
      }
      String badText = CodeText.problem("files", path);
      badText = badText != null ? badText : CodeText.problem("files", text);
      if (badText != null) {
        return refuse("In the entry \"" + ArgumentCheck.shorten(path) + "\": " + badText);
      }
      files.put(path, text);
    }
    String clash = FilePathRule.fileAndFolder(files.keySet());
    return clash == null
        ? new Result(new ProgramInput(null, files, List.of()), null)
        : refuse("\"files\" " + clash);
  }

  /** The total size rule; names the largest part, which is the one to shrink. */
  private static String tooLarge(ProgramInput input) {
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
        largestName = "\"files\" entry \"" + ArgumentCheck.shorten(file.getKey()) + "\"";
      }
    }
    for (String arg : input.args()) {
      total += utf8Length(arg);
    }
    if (total <= ProgramInput.MAX_TOTAL_BYTES) {
      return null;
    }
    return String.format(
        Locale.ROOT,
        "\"stdin\", \"files\" and \"args\" hold %,d bytes of UTF-8 together; at most %,d (4 MB) are"
            + " allowed. The largest is %s (%,d bytes). Pass less data, or have the program"
            + " generate or sample it.",
        total,
        ProgramInput.MAX_TOTAL_BYTES,
        largestName,
        largest);
  }

  /** A refusal whose message is {@code format} filled in (numbers in the root locale). */
  private static Result refuse(String format, Object... values) {
    return refuse(String.format(Locale.ROOT, format, values));
  }

  private static Result refuse(String message) {
    return new Result(null, message);
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
