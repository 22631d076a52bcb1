package dev.cinchmcp.backend;

import java.util.Objects;

/**
 * A complete program to run once, in a fresh sandbox: the tool's arguments, parsed once.
 *
 * @param input what it is given besides its code; a runner never sees any: {@link
 *     CodeRunner#runCall} sends a program with input under the launcher ({@link InputLauncher})
 * @param out the frame its launcher writes at the end of stdout with the files the program made,
 *     which the backend takes out of stdout ({@link FramedStdout}); null when there is none
 * @param source the program as its author wrote it: {@code code} itself, or the program a launcher
 *     wraps. A backend reads it (never runs it) to choose a sandbox, e.g. one that imported the
 *     program's heavy modules ahead ({@link PythonImports})
 */
public record Program(
    String code, Language language, ProgramInput input, OutFrame out, String source) {
  public Program {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(language, "language");
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(source, "source");
  }

  public Program(String code, Language language, ProgramInput input) {
    this(code, language, input, null, code);
  }

  public Program(String code, Language language) {
    this(code, language, ProgramInput.NONE);
  }
}
