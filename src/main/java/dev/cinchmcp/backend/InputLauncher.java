package dev.cinchmcp.backend;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Gives a program its {@link ProgramInput} on any backend: a launcher in its language writes the
 * program and files, runs it with stdin and args, and hands back the files it wrote ({@link
 * OutFrame}). The input travels base64 in one ASCII literal, so no quote breaks out.
 */
public final class InputLauncher {

  public static final String PROGRAM_DIR = "/tmp/program";

  /** Where shown figures and the matplotlib backend live in the sandbox (never listed). */
  private static final String FIGURES_DIR = PROGRAM_DIR + "/figures";

  private static final String LIB_DIR = PROGRAM_DIR + "/lib";

  private InputLauncher() {}

  /** The program itself when it has no input and shows no sign of writing files. */
  public static Launch prepare(Program program) {
    return prepare(program, program.input(), mayWriteFiles(program) ? OutFrame.fresh() : null);
  }

  public static Launch prepare(Program program, ProgramInput input) {
    return prepare(program, input, null);
  }

  private static Launch prepare(Program program, ProgramInput input, OutFrame out) {
    if (input.isEmpty() && out == null) {
      return new Launch(program, null);
    }
    // A fresh marker per run: a program cannot print it by accident.
    String marker = "[cinch-mcp launcher " + OutFrame.fresh().nonce() + "]";
    boolean python = program.language() == Language.PYTHON;
    Map<String, Object> given = new LinkedHashMap<>();
    given.put("program", PROGRAM_DIR + (python ? "/main.py" : "/main.js"));
    if (python) {
      // how the launcher starts the program; with a frame, matplotlib finds its backend there
      given.put(
          "boot",
          out == null
              ? PythonBootstrap.SOURCE
              : PythonBootstrap.withWait(
                  "import sys\nsys.path.append('" + LIB_DIR + "')\n", false));
      // in a sandbox that imported these ahead, the launcher forks so that the program keeps them
      given.put("preloadable", PythonImports.HEAVY);
    }
    given.put("workDir", ProgramInput.WORK_DIR);
    given.put("code", program.code());
    given.put("stdin", input.stdin());
    given.put(
        "files",
        input.files().entrySet().stream().map(f -> List.of(f.getKey(), f.getValue())).toList());
    given.put("args", input.args());
    if (out != null) {
      given.put("out", frameSettings(out, python));
    }
    String payload;
    try {
      payload = Base64.getEncoder().encodeToString(Loaded.JSON.writeValueAsBytes(given));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the launcher's input", e); // strings only
    }
    String code =
        (python ? Loaded.PYTHON : Loaded.JAVASCRIPT)
            .replace("@MARKER@", marker)
            .replace("@PAYLOAD@", payload);
    return new Launch(
        new Program(code, program.language(), ProgramInput.NONE, out, program.source()), marker);
  }

  private static Map<String, Object> frameSettings(OutFrame out, boolean python) {
    Map<String, Object> settings = new LinkedHashMap<>();
    settings.put("open", out.open());
    settings.put("close", out.close());
    settings.put("root", "/tmp");
    settings.put("work", ProgramInput.WORK_DIR);
    settings.put("skip", PROGRAM_DIR);
    settings.put("lib", LIB_DIR);
    settings.put("figuresDir", FIGURES_DIR);
    if (python) {
      settings.put("figures", Loaded.FIGURES.replace("@FIGURES_DIR@", FIGURES_DIR));
    }
    settings.put("maxPictures", WrittenFiles.MAX_PICTURES);
    settings.put("maxFileBytes", WrittenFiles.MAX_FILE_BYTES);
    settings.put("maxTotalBytes", WrittenFiles.MAX_TOTAL_BYTES);
    settings.put("maxTextBytes", WrittenFiles.MAX_TEXT_BYTES);
    settings.put("maxTexts", WrittenFiles.MAX_TEXTS);
    settings.put("maxListed", WrittenFiles.MAX_LISTED);
    settings.put("maxSeen", 5_000);
    return settings;
  }

  private static final String[] PICTURE_WORDS =
      "png PNG jpg JPG jpeg JPEG gif GIF webp WEBP svg SVG".split(" ");

  private static final List<String> PYTHON_WORDS =
      List.of(
          ("matplotlib pyplot savefig imsave PIL write_text write_bytes to_csv to_json to_excel"
                  + " to_html tofile np.save")
              .split(" "));

  private static final List<String> JAVASCRIPT_WORDS =
      List.of("writeFile", "appendFile", "createWriteStream", "writeSync", "openSync");

  /**
   * Whether a program may draw or write files, so it runs under the launcher (~0.25 s locally). It
   * errs towards yes, comments included. Substring searches: a megabyte of code in ~1 ms, where
   * regular expressions took ~0.3 s.
   */
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
      for (int at = code.indexOf(quote); at >= 0 && (close = code.indexOf(quote, at + 1)) >= 0; ) {
        String mode = close - at > 4 ? "" : code.substring(at + 1, close);
        if (mode.chars().allMatch(c -> "waxbt+".indexOf(c) >= 0)
            && mode.chars().filter(c -> "wax".indexOf(c) >= 0).count() == 1) {
          return true;
        }
        at = close;
      }
    }
    return false;
  }

  /** Loaded at first use: a call without input (the usual one) pays for none of it. */
  private static final class Loaded {
    static final String PYTHON = resource("launcher.py");
    static final String JAVASCRIPT = resource("launcher.js");
    static final String FIGURES = resource("figures.py");
    static final ObjectMapper JSON = new ObjectMapper();
  }

  private static String resource(String name) {
    try (InputStream in = InputLauncher.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** What the backend runs; {@code marker}: the launcher's mark on its failures, or null. */
  public record Launch(Program program, String marker) {

    /** The run, or a {@link RunFailure} when the launcher failed before the program ran. */
    public RunResult delivered(RunResult run) {
      String stderr = run.stderr().text();
      int at = marker == null ? -1 : stderr.indexOf(marker);
      if (at < 0) {
        return run;
      }
      int end = stderr.indexOf('\n', at);
      String what = stderr.substring(at + marker.length(), end < 0 ? stderr.length() : end).strip();
      if (what.length() > 500) {
        what = what.substring(0, 500) + "...";
      }
      throw new RunFailure(
          RunFailure.Reason.INPUT_NOT_DELIVERED,
          "The program did not run: the sandbox could not be given its input (the launcher that"
              + " writes files and passes stdin and args "
              + what
              + "). This is not an error in the program's code. Check the input against the"
              + " limits in the tool's description; if it keeps failing, tell the user.");
    }
  }
}
