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

  private static final String[] PICTURE_WORDS =
      "png PNG jpg JPG jpeg JPEG gif GIF webp WEBP svg SVG".split(" ");

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

  /** A quoted mode such as 'w', "wb", 'a+', 'xt': one of w, a, x and up to two of b, t, +. */
  private static boolean hasWriteMode(String code) {
    for (char quote : new char[] {'\'', '"'}) {
      int close;
      for (int at = code.indexOf(quote); at >= 0; at = close) {
        close = code.indexOf(quote, at + 1);
        if (close < 0) {
          break;
        }
        String mode = close - at > 4 ? "" : code.substring(at + 1, close);
        if (mode.chars().allMatch(c -> "waxbt+".indexOf(c) >= 0)
            && mode.chars().filter(c -> "wax".indexOf(c) >= 0).count() == 1) {
          return true;
        }
      }
    }
    return false;
  }
}
