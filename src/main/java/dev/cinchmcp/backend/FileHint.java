package dev.cinchmcp.backend;

import java.util.regex.Pattern;

/**
 * Whether a program's text shows it may draw or write files, so that it runs under the launcher
 * that hands them back ({@link OutFrame}). Only such programs pay for the launcher (a second
 * interpreter, ~0.25 s locally); every other request stays byte for byte what it was, on the hosted
 * API too. The rule reads the text only, so it errs towards yes: a word in a comment is enough, and
 * costs nothing but that time.
 *
 * <p>Python: a picture's name ({@code png}, {@code jpg}, {@code jpeg}, {@code gif}, {@code webp},
 * {@code svg}, as a word, in any case), {@code matplotlib}, {@code pyplot}, {@code savefig}, {@code
 * imsave}, {@code PIL}, a writing method ({@code write_text}, {@code write_bytes}, {@code to_csv},
 * {@code to_json}, {@code to_excel}, {@code to_html}, {@code tofile}, {@code np.save}), or {@code
 * open(} with a mode that writes ({@code 'w'}, {@code "ab"}, {@code 'x'}, ...) anywhere in the
 * text. JavaScript: a picture's name as above, or {@code writeFile}, {@code appendFile}, {@code
 * createWriteStream}, {@code writeSync}, {@code openSync}.
 */
public final class FileHint {

  private static final Pattern PICTURE_WORD =
      Pattern.compile("(?i)(?<![a-z])(png|jpe?g|gif|webp|svg)(?![a-z0-9])");

  private static final Pattern PYTHON_WORD =
      Pattern.compile(
          "matplotlib|pyplot|savefig|imsave|\\bPIL\\b|write_text|write_bytes|to_csv|to_json"
              + "|to_excel|to_html|tofile|\\bnp\\.save");

  private static final Pattern PYTHON_OPEN = Pattern.compile("\\bopen\\s*\\(");

  private static final Pattern WRITE_MODE =
      Pattern.compile("['\"](?:[bt+]{0,2}[wax][bt+]{0,2})['\"]");

  private static final Pattern JAVASCRIPT_WORD =
      Pattern.compile("writeFile|appendFile|createWriteStream|writeSync|openSync");

  private FileHint() {}

  /** True when the program may make pictures or files, by the rule above. */
  public static boolean mayWriteFiles(Program program) {
    String code = program.code();
    if (PICTURE_WORD.matcher(code).find()) {
      return true;
    }
    if (program.language() == Language.JAVASCRIPT) {
      return JAVASCRIPT_WORD.matcher(code).find();
    }
    return PYTHON_WORD.matcher(code).find()
        || (PYTHON_OPEN.matcher(code).find() && WRITE_MODE.matcher(code).find());
  }
}
