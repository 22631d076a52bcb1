package dev.cinchmcp.tool;

import dev.cinchmcp.backend.ProgramInput;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How the tool tells a model about {@code stdin}, {@code files} and {@code args}: their schema
 * properties and the description's paragraph, written from the limits in {@link ProgramInput}.
 */
final class InputSchema {

  private InputSchema() {}

  /** The three optional properties of the input schema, in order. */
  static Map<String, Object> properties() {
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put(
        "stdin",
        ToolSchemas.map(
            "type",
            "string",
            "description",
            "Text for the program's standard input, then end-of-file: sys.stdin.read() or input()"
                + " in Python, require('fs').readFileSync(0, 'utf8') in JavaScript. Without it,"
                + " stdin is empty."));
    properties.put(
        "files",
        ToolSchemas.map(
            "type",
            "object",
            "additionalProperties",
            Map.of("type", "string"),
            "maxProperties",
            ProgramInput.MAX_FILES,
            "description",
            "Text files to create before the program starts: relative path -> UTF-8 content, e.g."
                + " {\"data/input.csv\": \"a,b\\n1,2\\n\"}. They are written under "
                + ProgramInput.WORK_DIR
                + ", the program's working directory, so open('data/input.csv') reads one. Paths"
                + " are relative, with / between folders; no '..', no absolute or drive paths; at"
                + " most "
                + ProgramInput.MAX_FILES
                + " files."));
    properties.put(
        "args",
        ToolSchemas.map(
            "type",
            "array",
            "items",
            Map.of("type", "string"),
            "maxItems",
            ProgramInput.MAX_ARGS,
            "description",
            "Command-line arguments: sys.argv[1:] in Python, process.argv.slice(2) in JavaScript."
                + " For flags and names; pass data in stdin or files."));
    return properties;
  }

  /** The tool description's paragraph about input. */
  static String description() {
    return "Give the program its data as input instead of pasting it into the code: \"stdin\" (text"
        + " on standard input), \"files\" (path -> text, written under "
        + ProgramInput.WORK_DIR
        + ", the working directory; e.g. {\"data/input.csv\": \"...\"}, then"
        + " open('data/input.csv')) and \"args\" (command-line arguments). All three together hold"
        + " at most "
        + ProgramInput.MAX_TOTAL_BYTES / 1_000_000
        + " MB of text; at most "
        + ProgramInput.MAX_FILES
        + " files, with relative paths only (no '..').";
  }
}
