package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.Language;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The interpreters a sandbox can run: only those that, links resolved, live in {@link
 * #VISIBLE_DIRS} (a pyenv shim under /root or a node under /opt is invisible inside).
 *
 * @param python the Python's real path, or null
 * @param pythonDirs where it finds packages, in sys.path's order
 */
record SandboxRuntimes(
    Map<Language, String> interpreters,
    RuntimeVersions versions,
    Path python,
    List<String> pythonDirs) {

  /** The host directories bound read-only into every sandbox. */
  static final List<String> VISIBLE_DIRS = List.of("/usr", "/lib", "/lib64", "/bin");

  private static final Map<Language, List<String>> CANDIDATES =
      Map.of(
          Language.PYTHON, List.of("/usr/bin/python3", "/usr/local/bin/python3"),
          Language.JAVASCRIPT, List.of("/usr/bin/node", "/usr/local/bin/node", "/usr/bin/nodejs"));

  static final SandboxRuntimes NONE =
      new SandboxRuntimes(Map.of(), RuntimeVersions.NONE, null, List.of());

  static SandboxRuntimes find() {
    Map<Language, String> found = new EnumMap<>(Language.class);
    Map<Language, String> versions = new EnumMap<>(Language.class);
    for (Language language : Language.values()) {
      for (String candidate : CANDIDATES.get(language)) {
        if (usableInside(Path.of(candidate))) {
          found.put(language, candidate);
          hostVersion(candidate).ifPresent(version -> versions.put(language, version));
          break;
        }
      }
    }
    Path python = null;
    try {
      python =
          found.containsKey(Language.PYTHON)
              ? Path.of(found.get(Language.PYTHON)).toRealPath()
              : null;
    } catch (IOException e) {
      // no package directories
    }
    List<String> dirs =
        python == null
            ? List.of()
            : HostPackages.pythonDirs(python, versions.getOrDefault(Language.PYTHON, ""));
    return new SandboxRuntimes(found, new RuntimeVersions(versions), python, dirs);
  }

  private static boolean usableInside(Path path) {
    if (!Files.isExecutable(path)) {
      return false;
    }
    try {
      Path real = path.toRealPath();
      return VISIBLE_DIRS.stream().anyMatch(dir -> real.startsWith(dir));
    } catch (IOException e) {
      return false;
    }
  }

  Optional<String> interpreter(Language language) {
    return Optional.ofNullable(interpreters.get(language));
  }

  Set<Language> languages() {
    return interpreters.keySet();
  }

  /**
   * The interpreter's and its package folders' sizes and times: a changed one is not handed out.
   */
  Optional<String> fingerprint(Language language) {
    String interpreter = interpreters.get(language);
    if (interpreter == null) {
      return Optional.empty();
    }
    try {
      Path real = Path.of(interpreter).toRealPath();
      StringBuilder print = new StringBuilder(real + ":" + changed(real));
      for (String dir : language == Language.PYTHON ? pythonDirs : HostPackages.NODE_DIRS) {
        print.append(' ').append(dir).append(':').append(changed(Path.of(dir)));
      }
      return Optional.of(print.toString());
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static String changed(Path path) {
    try {
      BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
      return attributes.size() + ":" + attributes.lastModifiedTime();
    } catch (IOException e) {
      return "-";
    }
  }

  /** The interpreter's version, asked of the host binary the sandbox runs (~20 ms). */
  private static Optional<String> hostVersion(String interpreter) {
    try {
      Process process =
          new ProcessBuilder(interpreter, "--version").redirectErrorStream(true).start();
      process.getOutputStream().close();
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(5, TimeUnit.SECONDS) || process.exitValue() != 0) {
        process.destroyForcibly();
        return Optional.empty();
      }
      // "Python 3.11.2" or "v20.20.2"
      String version = out.strip().replaceFirst("^(Python |v)", "");
      return version.matches("\\d+\\.\\d+\\.\\d+.*") ? Optional.of(version) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  static String missingMessage(Language language) {
    return switch (language) {
      case PYTHON ->
          "python3 is not installed where the sandbox can see it (/usr/bin/python3): "
              + "install it with apt-get install -y python3";
      case JAVASCRIPT ->
          "node is not installed where the sandbox can see it (/usr/bin/node): "
              + "install it with apt-get install -y nodejs";
    };
  }
}
