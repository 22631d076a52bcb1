package dev.cinchmcp.backend;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

/**
 * Gives a program its {@link ProgramInput} on any backend, which takes only code: a launcher in the
 * same language ({@code launcher.py}, {@code launcher.js}) writes the program and files, runs it
 * with stdin and args, and, when it may write files ({@link FileHint}), hands them back ({@link
 * OutFrame}). The input travels base64 in one ASCII literal, so no quote or backslash breaks out.
 */
public final class InputLauncher {

  public static final String PROGRAM_DIR = "/tmp/program";

  private InputLauncher() {}

  static String programPath(Language language) {
    return PROGRAM_DIR + (language == Language.PYTHON ? "/main.py" : "/main.js");
  }

  /** The program itself when it has no input and shows no sign of writing files. */
  public static Launch prepare(Program program) {
    return prepare(
        program, program.input(), FileHint.mayWriteFiles(program) ? OutFrame.fresh() : null);
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
    String template = program.language() == Language.PYTHON ? Loaded.PYTHON : Loaded.JAVASCRIPT;
    String code =
        template.replace("@MARKER@", marker).replace("@PAYLOAD@", payload(program, input, out));
    return new Launch(
        new Program(code, program.language(), ProgramInput.NONE, out, program.source()), marker);
  }

  private static String payload(Program program, ProgramInput input, OutFrame out) {
    ObjectNode given = Loaded.JSON.createObjectNode();
    given.put("program", programPath(program.language()));
    if (program.language() == Language.PYTHON) {
      // how the launcher starts the program; with a frame, matplotlib finds its backend there
      given.put(
          "boot",
          out == null
              ? PythonBootstrap.SOURCE
              : PythonBootstrap.withPrelude(
                  "import sys\nsys.path.append('" + OutFrame.LIB_DIR + "')\n"));
      // in a sandbox that imported these ahead, the launcher forks so that the program keeps them
      ArrayNode preloadable = given.putArray("preloadable");
      PythonImports.HEAVY.forEach(preloadable::add);
    }
    given.put("workDir", ProgramInput.WORK_DIR);
    given.put("code", program.code());
    given.put("stdin", input.stdin());
    ArrayNode files = given.putArray("files");
    for (Map.Entry<String, String> file : input.files().entrySet()) {
      files.addArray().add(file.getKey()).add(file.getValue());
    }
    ArrayNode args = given.putArray("args");
    input.args().forEach(args::add);
    if (out != null) {
      String figures = program.language() == Language.PYTHON ? Loaded.FIGURES : null;
      given.set("out", Loaded.JSON.valueToTree(out.launcherSettings(figures)));
    }
    try {
      return Base64.getEncoder()
          .encodeToString(Loaded.JSON.writeValueAsString(given).getBytes(StandardCharsets.UTF_8));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the launcher's input", e); // strings only
    }
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
      if (in == null) {
        throw new IllegalStateException("missing resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** What the backend runs; {@code marker}: the launcher's mark on its failures, or null. */
  public record Launch(Program program, String marker) {

    /** The run, or a {@link RunFailure} when the launcher failed before the program ran. */
    public RunResult delivered(RunResult run) {
      if (marker == null) {
        return run;
      }
      String stderr = run.stderr().text();
      int at = stderr.indexOf(marker);
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
