package dev.cinchmcp.backend;

import java.util.Objects;

/**
 * A complete program to run once, in a fresh sandbox.
 *
 * @param out the frame its launcher writes at the end of stdout with the files the program made,
 *     which the backend takes out of stdout ({@link FramedStdout}); null when there is none
 */
public record Program(String code, Language language, OutFrame out) {
  public Program {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(language, "language");
  }

  public Program(String code, Language language) {
    this(code, language, null);
  }
}
