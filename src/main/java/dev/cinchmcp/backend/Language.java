package dev.cinchmcp.backend;

import java.util.Arrays;
import java.util.Optional;

/** The languages a sandbox runs, with their names on the wire and in the tool's arguments. */
public enum Language {
  PYTHON("python"),
  JAVASCRIPT("javascript");

  private final String wireName;

  Language(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }

  /** The language with this wire name, if there is one (exact, lower case). */
  public static Optional<Language> fromWireName(String name) {
    return Arrays.stream(values()).filter(l -> l.wireName.equals(name)).findFirst();
  }
}
