package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.Language;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** The interpreter versions the sandbox runs, by language, as the host binaries report them. */
public record RuntimeVersions(Map<Language, String> versions) {

  public static final RuntimeVersions NONE = new RuntimeVersions(Map.of());

  public RuntimeVersions {
    versions = versions.isEmpty() ? Map.of() : new EnumMap<>(versions);
  }

  public Optional<String> version(Language language) {
    return Optional.ofNullable(versions.get(language));
  }

  /** "Python 3.11.2, Node.js 20.20.2", or "no interpreter" when none was found. */
  public String describe() {
    if (versions.isEmpty()) {
      return "no interpreter";
    }
    return versions.entrySet().stream()
        .map(e -> displayName(e.getKey()) + " " + e.getValue())
        .collect(Collectors.joining(", "));
  }

  static String displayName(Language language) {
    return language == Language.PYTHON ? "Python" : "Node.js";
  }
}
