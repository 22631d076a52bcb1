package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.Language;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The well-known packages the sandbox's interpreters find, for the tool description ("Python: numpy
 * 1.24, pandas 1.5"), read from the package managers' files without starting an interpreter.
 */
public final class HostPackages {

  public static final HostPackages NONE = new HostPackages(Map.of());

  /** Where Node looks inside the sandbox: {@code npm install -g}, Debian's node-*. */
  static final List<String> NODE_DIRS =
      List.of("/usr/local/lib/node_modules", "/usr/lib/node_modules", "/usr/share/nodejs");

  /** "name" or "name=module" (as installed, then as imported). */
  private static final String PYTHON =
      "numpy pandas matplotlib scipy sympy scikit-learn=sklearn statsmodels seaborn networkx"
          + " Pillow=PIL polars pyarrow openpyxl lxml beautifulsoup4=bs4 PyYAML=yaml shapely"
          + " scikit-image=skimage numba tables h5py";

  private static final String NODE =
      "lodash d3 mathjs decimal.js big.js date-fns dayjs moment luxon papaparse csv-parse xlsx"
          + " yaml js-yaml marked cheerio jsdom pngjs canvas sharp typescript";

  private static final Pattern NODE_VERSION = Pattern.compile("\"version\"\\s*:\\s*\"([^\"]+)\"");
  private static final Pattern SHORT_VERSION = Pattern.compile("\\d+(\\.\\d+)?");

  // as a program names them: "numpy 1.24", "PIL 9.4" (Pillow)
  private final Map<Language, List<String>> found;

  private HostPackages(Map<Language, List<String>> found) {
    this.found = Map.copyOf(found);
  }

  /** Looks under {@code root} ("/" on a real machine) in the Python's {@link #pythonDirs}. */
  static HostPackages find(Path root, List<String> pythonDirs, boolean node) {
    Map<Language, List<String>> found = new LinkedHashMap<>();
    found.put(Language.PYTHON, python(root, pythonDirs));
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
    boolean usr = python != null && prefix.equals("/usr");
    List<String> dirs = new ArrayList<>();
    if (usr) {
      dirs.add("/usr/local/lib/" + python + "/dist-packages");
    }
    dirs.add(prefix + "/lib/python3/dist-packages");
    if (usr) {
      dirs.add("/usr/lib/" + python + "/dist-packages");
    }
    if (python != null) {
      dirs.add(prefix + "/lib/" + python + "/site-packages");
      dirs.add(prefix + "/lib64/" + python + "/site-packages");
    }
    return List.copyOf(dirs);
  }

  private static List<String> python(Path root, List<String> dirs) {
    // No records, globs or lambdas: on a fresh JVM a record's first hashCode cost ~20 ms.
    Map<String, String> versions = new HashMap<>(); // by normalised name; the first directory wins
    for (String dir : dirs) {
      Path site = root.resolve(dir.substring(1));
      if (!Files.isDirectory(site)) {
        continue;
      }
      try (DirectoryStream<Path> entries = Files.newDirectoryStream(site)) {
        for (Path entry : entries) {
          String[] nameAndVersion = metadataName(entry.getFileName().toString());
          if (nameAndVersion != null) {
            versions.putIfAbsent(normalised(nameAndVersion[0]), nameAndVersion[1]);
          }
        }
      } catch (IOException e) {
        // an unreadable directory names nothing
      }
    }
    List<String> found = new ArrayList<>();
    for (String known : PYTHON.split(" ")) {
      int eq = known.indexOf('=');
      String version = versions.get(normalised(eq < 0 ? known : known.substring(0, eq)));
      if (version != null) {
        found.add(described(known.substring(eq + 1), shortVersion(version)));
      }
    }
    return List.copyOf(found);
  }

  /** "numba-0.56.4-py3.11.egg-info" -> name and version; null for anything else. */
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

  private static List<String> node(Path root) {
    List<String> found = new ArrayList<>();
    for (String known : NODE.split(" ")) {
      for (String dir : NODE_DIRS) {
        Path manifest = root.resolve(dir.substring(1)).resolve(known).resolve("package.json");
        if (Files.isRegularFile(manifest)) {
          found.add(described(known, shortVersion(nodeVersion(manifest))));
          break;
        }
      }
    }
    return List.copyOf(found);
  }

  private static String described(String module, String version) {
    return module + (version.isEmpty() ? "" : " " + version);
  }

  private static String nodeVersion(Path manifest) {
    try {
      if (Files.size(manifest) > 1 << 20) { // a real package's is small: a huge one is not read
        return "";
      }
      Matcher m = NODE_VERSION.matcher(Files.readString(manifest, StandardCharsets.UTF_8));
      return m.find() ? m.group(1) : "";
    } catch (IOException e) {
      return "";
    }
  }

  /** PEP 503: case and runs of "-", "_", "." do not matter. */
  static String normalised(String name) {
    StringBuilder out = new StringBuilder(name.length());
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c != '-' && c != '_' && c != '.') {
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

  /** "Python: numpy 1.24, pandas 1.5; Node.js: lodash 4.17", or "" when none was found. */
  public String describe() {
    List<String> parts = new ArrayList<>();
    for (Language language : Language.values()) {
      List<String> list = found.getOrDefault(language, List.of());
      if (!list.isEmpty()) {
        parts.add(RuntimeVersions.displayName(language) + ": " + String.join(", ", list));
      }
    }
    return String.join("; ", parts);
  }
}
