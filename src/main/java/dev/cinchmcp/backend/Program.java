package dev.cinchmcp.backend;

/**
 * A program to run once: the tool's arguments, parsed.
 *
 * @param input a runner never sees any: {@link CodeRunner#runCall} puts it in the launcher
 * @param out the launcher's frame with the files made ({@link FramedStdout}), or null
 * @param source as its author wrote it, read (never run) to choose a sandbox ({@link
 *     PythonImports})
 */
public record Program(
    String code, Language language, ProgramInput input, OutFrame out, String source) {
  public Program(String code, Language language, ProgramInput input) {
    this(code, language, input, null, code);
  }

  public Program(String code, Language language) {
    this(code, language, ProgramInput.NONE);
  }
}
