package dev.cinchmcp.tool;

import dev.cinchmcp.backend.ProgramInput;
import dev.cinchmcp.backend.SandboxFacts;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The execute_code tool's input and output JSON Schemas, built as maps (no parsing at start-up).
 * {@link ArgumentCheck} enforces the input schema by hand; a test checks both schemas and the
 * results against a real JSON Schema validator.
 */
final class ToolSchemas {

  private static final List<String> NULLABLE_INTEGER = List.of("integer", "null");

  private ToolSchemas() {}

  static Map<String, Object> input(SandboxFacts facts) {
    return object(
        map(
            "code",
            typed(
                "string",
                "A complete, self-contained program; only what it prints comes back, so print"
                    + " whatever you want to see.",
                "minLength",
                1),
            "language",
            typed(
                "string",
                "python or javascript (the sandbox runs "
                    + facts.runtimes()
                    + "). Defaults to python.",
                "enum",
                List.of("python", "javascript"),
                "default",
                "python"),
            "stdin",
            typed(
                "string",
                "Text for the program's standard input, then end-of-file: sys.stdin.read() or"
                    + " input() in Python, require('fs').readFileSync(0, 'utf8') in JavaScript."
                    + " Without it, stdin is empty."),
            "files",
            typed(
                "object",
                "Text files to create before the program starts: relative path -> UTF-8 content,"
                    + " e.g. {\"data/input.csv\": \"a,b\\n1,2\\n\"}. They are written under "
                    + ProgramInput.WORK_DIR
                    + ", the program's working directory, so open('data/input.csv') reads one."
                    + " Paths are relative, with / between folders; no '..', no absolute or drive"
                    + " paths; at most "
                    + ProgramInput.MAX_FILES
                    + " files.",
                "additionalProperties",
                Map.of("type", "string"),
                "maxProperties",
                ProgramInput.MAX_FILES),
            "args",
            typed(
                "array",
                "Command-line arguments: sys.argv[1:] in Python, process.argv.slice(2) in"
                    + " JavaScript. For flags and names; pass data in stdin or files.",
                "items",
                Map.of("type", "string"),
                "maxItems",
                ProgramInput.MAX_ARGS)),
        List.of("code"));
  }

  static Map<String, Object> output() {
    String shown =
        ", as shown. " + SandboxFacts.outputCut() + " " + SandboxFacts.controlCharacters();
    Map<String, Object> properties =
        map(
            "error",
            typed(
                "string",
                "Present, and first, when the run failed but drew pictures: the result is then not"
                    + " flagged as an error only so that its pictures reach you. Read it first: the"
                    + " run failed."),
            "summary",
            typed(
                "string",
                "What happened, in words: the exit code or time-out, what was cut and where, and"
                    + " what to do next. Read it first."),
            "stdout",
            typed("string", "Standard output" + shown),
            "stderr",
            typed("string", "Standard error" + shown),
            "exitCode",
            typed(NULLABLE_INTEGER, "The program's exit status; null if not reported."),
            "timedOut",
            typed("boolean", "True when the sandbox stopped the program at its time limit."),
            "durationMs",
            typed(
                NULLABLE_INTEGER,
                "Run time in the sandbox, in milliseconds; null if not reported."));
    for (String stream : List.of("stdout", "stderr")) {
      properties.put(
          stream + "Truncated",
          typed(
              "boolean",
              "True when the middle of " + stream + " was left out (its marker says how much)."));
    }
    for (String stream : List.of("stdout", "stderr")) {
      properties.put(
          stream + "Length",
          count("Length of the full " + stream + " as the program printed it, in characters."));
    }
    properties.putAll(
        map(
            "backend",
            typed(
                "string",
                "What ran the program: cinch (the Cinch API), local (gVisor) or docker (a container"
                    + " engine)."),
            "input",
            typed(
                "string",
                "Present when stdin, files or args were given: what the program received."),
            "files",
            typed(
                "array",
                "Present when the program may have written files: what it wrote (under /tmp) and"
                    + " the figures it showed, in the order made. Pictures come back as image"
                    + " blocks beside this result.",
                "items",
                fileEntry())));
    Set<String> optional = Set.of("error", "input", "files");
    return object(
        properties, properties.keySet().stream().filter(k -> !optional.contains(k)).toList());
  }

  /** A file a program wrote or a figure it showed. */
  private static Map<String, Object> fileEntry() {
    return object(
        map(
            "name",
            typed(
                "string",
                "The file's path (relative to the working directory when inside it), or"
                    + " [figure N] for a figure shown with matplotlib."),
            "size",
            count("Its size in bytes."),
            "type",
            map("type", "string", "enum", List.of("figure", "picture", "file")),
            "returned",
            typed(
                "string",
                "image: an image block of the result; text: an embedded resource with its text;"
                    + " listed: name and size only; left out: a picture that did not come back"
                    + " (the note says why).",
                "enum",
                List.of("image", "text", "listed", "left out")),
            "note",
            typed("string", "Scaled, or why it was left out."),
            "width",
            count("Width in pixels of the image as sent."),
            "height",
            count("Height in pixels of the image as sent.")),
        List.of("name", "size", "type", "returned"));
  }

  /** {@code type}, then the other {@code pairs}, then {@code description}. */
  private static Map<String, Object> typed(Object type, String description, Object... pairs) {
    Map<String, Object> m = map("type", type);
    m.putAll(map(pairs));
    m.put("description", description);
    return m;
  }

  private static Map<String, Object> count(String description) {
    return typed("integer", description, "minimum", 0);
  }

  private static Map<String, Object> object(Map<String, Object> properties, List<String> required) {
    return map(
        "type",
        "object",
        "properties",
        properties,
        "required",
        required,
        "additionalProperties",
        false);
  }

  /** An insertion-ordered map from alternating keys and values. */
  private static Map<String, Object> map(Object... pairs) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put((String) pairs[i], pairs[i + 1]);
    }
    return m;
  }
}
