package dev.cinchmcp.tool;

import java.util.Locale;

/**
 * Checks that the program's text can be sent as it is. A lone surrogate (half of a UTF-16 pair,
 * which a client can send as a backslash-u escape such as D800 in JSON) has no UTF-8 form: the
 * cinch backend would send {@code ?} in its place and the local one could not write the file, so it
 * is refused, with where it is.
 *
 * <p>NUL is allowed: JSON carries it as an escape, both backends pass it on unchanged, and
 * JavaScript accepts it inside string literals. Python refuses it itself, with a clear "source code
 * cannot contain null bytes", which the result shows.
 */
final class CodeText {

  private CodeText() {}

  /**
   * What is wrong with the text of {@code argument}, naming it and the place; null when it can be
   * sent.
   */
  static String problem(String argument, String code) {
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
}
