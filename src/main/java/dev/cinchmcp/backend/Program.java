package dev.cinchmcp.backend;

import java.util.Objects;

/** A complete program to run once, in a fresh sandbox. */
public record Program(String code, Language language) {
  public Program {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(language, "language");
  }
}
