package dev.cinchmcp.tool;

import dev.cinchmcp.backend.ProgramInput;
import java.util.Locale;

/**
 * The result's line that says what input the program was given, so the model knows it arrived:
 * {@code Input: stdin 1,204 chars; files: data/input.csv (1,048,576 chars); args: 2}.
 */
final class InputSummary {

  /** Files named one by one; more are counted. */
  private static final int NAMED_FILES = 10;

  private InputSummary() {}

  /** The line with its newline, or "" when nothing was given. */
  static String line(ProgramInput input) {
    if (input.isEmpty()) {
      return "";
    }
    StringBuilder sb = new StringBuilder("Input:");
    String separator = " ";
    if (input.stdin() != null) {
      sb.append(separator)
          .append(String.format(Locale.ROOT, "stdin %,d chars", input.stdin().length()));
      separator = "; ";
    }
    if (!input.files().isEmpty()) {
      sb.append(separator).append("files: ");
      int shown = 0;
      for (var file : input.files().entrySet()) {
        if (shown == NAMED_FILES) {
          sb.append(", and ").append(input.files().size() - shown).append(" more");
          break;
        }
        sb.append(shown == 0 ? "" : ", ")
            .append(ArgumentCheck.shorten(file.getKey()))
            .append(String.format(Locale.ROOT, " (%,d chars)", file.getValue().length()));
        shown++;
      }
      sb.append(" in ").append(ProgramInput.WORK_DIR);
      separator = "; ";
    }
    if (!input.args().isEmpty()) {
      sb.append(separator).append("args: ").append(input.args().size());
    }
    return sb.append('\n').toString();
  }
}
