package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.Language;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** The interpreter versions the sandbox runs, as reported from inside one at start-up. */
public final class RuntimeVersions {

  public static final RuntimeVersions NONE = new RuntimeVersions(Map.of());

  private final Map<Language, String> versions;

  RuntimeVersions(Map<Language, String> versions) {
    this.versions = versions.isEmpty() ? Map.of() : new EnumMap<>(versions);
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
    return switch (language) {
      case PYTHON -> "Python";
      case JAVASCRIPT -> "Node.js";
    };
  }

  @Override
  public String toString() {
    return describe();
  }
}
