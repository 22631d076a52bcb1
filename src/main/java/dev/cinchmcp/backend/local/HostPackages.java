package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.Language;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The well-known packages under /usr that the sandbox's interpreters find, for the tool description
 * ("Python: numpy 1.24, pandas 1.5"), found from the package managers' files without starting an
 * interpreter. Only names a model would reach for; the rest imports as well, unnamed.
 */
public final class HostPackages {

  public static final HostPackages NONE = new HostPackages(Map.of());

  /** Where Node looks inside the sandbox: {@code npm install -g}, Debian's node-*. */
  static final List<String> NODE_DIRS =
      List.of("/usr/local/lib/node_modules", "/usr/lib/node_modules", "/usr/share/nodejs");

  /** The name as installed, and as imported if different. */
  static final List<Known> PYTHON =
      known(
          "numpy pandas matplotlib scipy sympy scikit-learn=sklearn statsmodels seaborn networkx"
              + " Pillow=PIL polars pyarrow openpyxl lxml beautifulsoup4=bs4 PyYAML=yaml shapely"
              + " scikit-image=skimage numba tables h5py");

  /** A Node package is required by its own name. */
  static final List<Known> NODE =
      known(
          "lodash d3 mathjs decimal.js big.js date-fns dayjs moment luxon papaparse csv-parse xlsx"
              + " yaml js-yaml marked cheerio jsdom pngjs canvas sharp typescript");

  record Known(String name, String module) {}

  /** "name" or "name=module" (as installed, then as imported), space-separated. */
  private static List<Known> known(String names) {
    List<Known> known = new ArrayList<>();
    for (String name : names.split(" ")) {
      int eq = name.indexOf('=');
      known.add(new Known(eq < 0 ? name : name.substring(0, eq), name.substring(eq + 1)));
    }
    return List.copyOf(known);
  }

  /** One package found, with its version ("1.24"; empty when the files do not say). */
  record Found(Known known, String version) {
    /** As a program names it: "numpy 1.24", "PIL 9.4" (Pillow). */
    String describe() {
      return known.module() + (version.isEmpty() ? "" : " " + version);
    }
  }

  private static final Pattern NODE_VERSION = Pattern.compile("\"version\"\\s*:\\s*\"([^\"]+)\"");
  private static final Pattern SHORT_VERSION = Pattern.compile("\\d+(\\.\\d+)?");

  private final Map<Language, List<Found>> found;

  HostPackages(Map<Language, List<Found>> found) {
    this.found = Map.copyOf(found);
  }

  /** Looks under {@code root} ("/" on a real machine); {@code python}: its real path, if any. */
  static HostPackages find(
      Path root, Optional<Path> python, Optional<String> pythonVersion, boolean node) {
    Map<Language, List<Found>> found = new LinkedHashMap<>();
    python.ifPresent(
        interpreter ->
            found.put(
                Language.PYTHON, python(root, pythonDirs(interpreter, pythonVersion.orElse("")))));
    if (node) {
      found.put(Language.JAVASCRIPT, node(root));
    }
    return new HostPackages(found);
  }

  /** Where {@code <prefix>/bin/python3.X} finds packages, in sys.path's order. */
  static List<String> pythonDirs(Path interpreter, String version) {
    Path bin = interpreter.getParent();
    if (bin == null || bin.getParent() == null) {
      return List.of();
    }
    String prefix = bin.getParent().toString();
    String[] parts = version.split("\\.");
    String python = parts.length >= 2 ? "python" + parts[0] + "." + parts[1] : null;
    List<String> dirs = new ArrayList<>();
    if (python != null && prefix.equals("/usr")) {
      dirs.add("/usr/local/lib/" + python + "/dist-packages");
    }
    dirs.add(prefix + "/lib/python3/dist-packages");
    if (python != null && prefix.equals("/usr")) {
      dirs.add("/usr/lib/" + python + "/dist-packages");
    }
    if (python != null) {
      dirs.add(prefix + "/lib/" + python + "/site-packages");
      dirs.add(prefix + "/lib64/" + python + "/site-packages");
    }
    return List.copyOf(dirs);
  }

  private static List<Found> python(Path root, List<String> dirs) {
    // Keyed by name, not by the Known record: a record's first hashCode costs a fresh JVM ~20 ms
    // (its invokedynamic bootstrap), which is more than the whole search.
    Set<String> known = new HashSet<>();
    for (Known each : PYTHON) {
      known.add(normalised(each.name()));
    }
    Map<String, String> versions = new HashMap<>();
    for (String dir : dirs) {
      Path site = inside(root, dir);
      if (!Files.isDirectory(site)) {
        continue;
      }
      // Plain string work per entry: this runs before the server is ready, mostly interpreted (a
      // glob filter cost ~25 ms more on a fresh JVM).
      try (DirectoryStream<Path> entries = Files.newDirectoryStream(site)) {
        for (Path entry : entries) {
          String[] nameAndVersion = metadataName(entry.getFileName().toString());
          if (nameAndVersion != null) {
            String name = normalised(nameAndVersion[0]);
            if (known.contains(name)) {
              versions.putIfAbsent(name, nameAndVersion[1]); // the first directory wins
            }
          }
        }
      } catch (IOException e) {
        // an unreadable directory names nothing
      }
    }
    List<Found> found = new ArrayList<>();
    for (Known each : PYTHON) {
      String version = versions.get(normalised(each.name()));
      if (version != null) {
        found.add(new Found(each, shortVersion(version)));
      }
    }
    return List.copyOf(found);
  }

  /**
   * "scikit_learn-1.2.1.dist-info", "numba-0.56.4-py3.11.egg-info" -> name and version; null for
   * anything else ("cryptography.egg-info" has no version).
   */
  static String[] metadataName(String entry) {
    int end =
        entry.endsWith(".dist-info") || entry.endsWith(".egg-info") ? entry.lastIndexOf('.') : -1;
    for (int dash = entry.indexOf('-');
        dash > 0 && dash < end;
        dash = entry.indexOf('-', dash + 1)) {
      if (Character.isDigit(entry.charAt(dash + 1))) {
        String version = entry.substring(dash + 1, end);
        int python = version.indexOf("-py");
        return new String[] {
          entry.substring(0, dash), python < 0 ? version : version.substring(0, python)
        };
      }
    }
    return null;
  }

  private static List<Found> node(Path root) {
    List<Path> dirs = new ArrayList<>();
    for (String dir : NODE_DIRS) {
      Path path = inside(root, dir);
      if (Files.isDirectory(path)) {
        dirs.add(path);
      }
    }
    List<Found> found = new ArrayList<>();
    for (Known known : NODE) {
      for (Path dir : dirs) {
        Path manifest = dir.resolve(known.name()).resolve("package.json");
        if (Files.isRegularFile(manifest)) {
          found.add(new Found(known, shortVersion(nodeVersion(manifest))));
          break;
        }
      }
    }
    return List.copyOf(found);
  }

  private static String nodeVersion(Path manifest) {
    try {
      // package.json files of real packages are small; a huge one is not read whole.
      if (Files.size(manifest) > 1 << 20) {
        return "";
      }
      Matcher m = NODE_VERSION.matcher(Files.readString(manifest, StandardCharsets.UTF_8));
      return m.find() ? m.group(1) : "";
    } catch (IOException e) {
      return "";
    }
  }

  private static Path inside(Path root, String absolute) {
    return root.resolve(absolute.substring(1));
  }

  /** PEP 503: case and runs of "-", "_", "." do not matter. */
  static String normalised(String name) {
    StringBuilder out = new StringBuilder(name.length());
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean separator = c == '-' || c == '_' || c == '.';
      if (!separator) {
        out.append(Character.toLowerCase(c));
      } else if (out.length() == 0 || out.charAt(out.length() - 1) != '-') {
        out.append('-');
      }
    }
    return out.toString();
  }

  /** "1.24.2" -> "1.24"; "0.0.0" (Debian's placeholder for an unknown version) -> "". */
  static String shortVersion(String version) {
    Matcher m = SHORT_VERSION.matcher(version);
    return version.startsWith("0.0.0") || !m.lookingAt() ? "" : m.group();
  }

  List<Found> found(Language language) {
    return found.getOrDefault(language, List.of());
  }

  public boolean isEmpty() {
    return found.values().stream().allMatch(List::isEmpty);
  }

  /** "Python: numpy 1.24, pandas 1.5; Node.js: lodash 4.17", or "" when none was found. */
  public String describe() {
    List<String> parts = new ArrayList<>();
    for (Language language : Language.values()) {
      List<Found> list = found(language);
      if (!list.isEmpty()) {
        StringBuilder part = new StringBuilder(RuntimeVersions.displayName(language)).append(": ");
        for (int i = 0; i < list.size(); i++) {
          part.append(i == 0 ? "" : ", ").append(list.get(i).describe());
        }
        parts.add(part.toString());
      }
    }
    return String.join("; ", parts);
  }

  @Override
  public String toString() {
    return describe();
  }
}
