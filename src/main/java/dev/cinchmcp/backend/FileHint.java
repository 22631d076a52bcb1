package dev.cinchmcp.backend;

import java.util.List;

/**
 * Whether a program's text shows it may draw or write files, so that it runs under the launcher
 * that hands them back ({@link OutFrame}); only such programs pay for it (~0.25 s locally). It errs
 * towards yes: a picture's name as a word, one of the words below, or (Python) {@code open} with a
 * quoted writing mode anywhere, comments included. Substring searches only: a megabyte of code is
 * read in ~1 ms, where regular expressions took ~0.3 s per call.
 */
final class FileHint {

  private static final List<String> PICTURE_WORDS =
      List.of(
          "png", "PNG", "jpg", "JPG", "jpeg", "JPEG", "gif", "GIF", "webp", "WEBP", "svg", "SVG");

  private static final List<String> PYTHON_WORDS =
      List.of(
          ("matplotlib pyplot savefig imsave PIL write_text write_bytes to_csv to_json to_excel"
                  + " to_html tofile np.save")
              .split(" "));

  private static final List<String> JAVASCRIPT_WORDS =
      List.of("writeFile", "appendFile", "createWriteStream", "writeSync", "openSync");

  private FileHint() {}

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

  /** A quoted mode such as 'w', "wb", 'a+', 'xt'. */
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
