package dev.cinchmcp.backend;

import java.util.List;

/**
 * Whether a program's text shows it may draw or write files, so that it runs under the launcher
 * that hands them back ({@link OutFrame}). Only such programs pay for the launcher (a second
 * interpreter, ~0.25 s locally); every other request stays byte for byte what it was, on the hosted
 * API too. The rule reads the text only, so it errs towards yes: a word in a comment is enough, and
 * costs nothing but that time.
 *
 * <p>Python: a picture's name ({@code png}, {@code jpg}, {@code jpeg}, {@code gif}, {@code webp},
 * {@code svg}, in lower or upper case, not after a letter nor before a letter or digit), {@code
 * matplotlib}, {@code pyplot}, {@code savefig}, {@code imsave}, {@code PIL}, a writing method
 * ({@code write_text}, {@code write_bytes}, {@code to_csv}, {@code to_json}, {@code to_excel},
 * {@code to_html}, {@code tofile}, {@code np.save}), or {@code open(} with a quoted mode that
 * writes ({@code 'w'}, {@code "ab"}, {@code 'x'}, ...) anywhere in the text. JavaScript: a
 * picture's name as above, or {@code writeFile}, {@code appendFile}, {@code createWriteStream},
 * {@code writeSync}, {@code openSync}.
 *
 * <p>Plain substring searches only ({@code String.indexOf}, which the JVM vectorises): a megabyte
 * of code is read in about a millisecond, where regular expressions took ~0.3 s per call.
 */
final class FileHint {

  private static final List<String> PICTURE_WORDS =
      List.of(
          "png", "PNG", "jpg", "JPG", "jpeg", "JPEG", "gif", "GIF", "webp", "WEBP", "svg", "SVG");

  private static final List<String> PYTHON_WORDS =
      List.of(
          "matplotlib",
          "pyplot",
          "savefig",
          "imsave",
          "PIL",
          "write_text",
          "write_bytes",
          "to_csv",
          "to_json",
          "to_excel",
          "to_html",
          "tofile",
          "np.save");

  private static final List<String> JAVASCRIPT_WORDS =
      List.of("writeFile", "appendFile", "createWriteStream", "writeSync", "openSync");

  private FileHint() {}

  /** True when the program may make pictures or files, by the rule above. */
  static boolean mayWriteFiles(Program program) {
    String code = program.code();
    for (String word : PICTURE_WORDS) {
      if (containsWord(code, word)) {
        return true;
      }
    }
    if (program.language() == Language.JAVASCRIPT) {
      return JAVASCRIPT_WORDS.stream().anyMatch(code::contains);
    }
    return PYTHON_WORDS.stream().anyMatch(code::contains)
        || (code.contains("open") && hasWriteMode(code));
  }

  /** {@code word} not after a letter, and not before a letter or digit. */
  private static boolean containsWord(String code, String word) {
    for (int at = code.indexOf(word); at >= 0; at = code.indexOf(word, at + 1)) {
      int end = at + word.length();
      boolean before = at > 0 && Character.isLetter(code.charAt(at - 1));
      boolean after = end < code.length() && Character.isLetterOrDigit(code.charAt(end));
      if (!before && !after) {
        return true;
      }
    }
    return false;
  }

  /**
   * A quoted mode such as 'w', "wb", 'a+', 'xt': a mode letter that writes, and only mode chars.
   */
  private static boolean hasWriteMode(String code) {
    for (char quote : new char[] {'\'', '"'}) {
      for (int at = code.indexOf(quote); at >= 0; at = code.indexOf(quote, at + 1)) {
        int close = code.indexOf(quote, at + 1);
        if (close < 0) {
          break;
        }
        if (close - at - 1 <= 3 && isWriteMode(code, at + 1, close)) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean isWriteMode(String code, int from, int to) {
    boolean writes = false;
    for (int i = from; i < to; i++) {
      char c = code.charAt(i);
      if (c == 'w' || c == 'a' || c == 'x') {
        if (writes) {
          return false;
        }
        writes = true;
      } else if (c != 'b' && c != 't' && c != '+') {
        return false;
      }
    }
    return writes;
  }
}
