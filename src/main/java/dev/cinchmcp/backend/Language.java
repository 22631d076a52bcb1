package dev.cinchmcp.backend;

import java.util.Locale;
import java.util.Optional;

/** The languages a sandbox runs, with their names on the wire and in the tool's arguments. */
public enum Language {
  PYTHON,
  JAVASCRIPT;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Optional<Language> fromWireName(String name) {
    // A loop, not a stream: this is on the first call's path, where a lambda costs a bootstrap.
    for (Language language : values()) {
      if (language.wireName().equals(name)) {
        return Optional.of(language);
      }
    }
    return Optional.empty();
  }
}
