package dev.cinchmcp.backend;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The heavy modules a Python program's import statements name, for a sandbox to import ahead.
 * {@code from a.b import c} names {@code a.b} and the candidate {@code a.b.c} (the backend checks
 * which is a module). A statement inside a string counts too.
 */
public final class PythonImports {

  /** Seconds to import in a sandbox: numpy ~1 s, pandas ~2.5 s, pyplot ~1.5 s at half a CPU. */
  public static final List<String> HEAVY =
      List.of(
          ("numpy pandas matplotlib scipy sklearn seaborn statsmodels sympy networkx polars pyarrow"
                  + " skimage numba h5py tables shapely PIL")
              .split(" "));

  private static final String NAME =
      "[\\p{javaJavaIdentifierStart}&&[^$]][\\p{javaJavaIdentifierPart}&&[^$]]*";
  private static final Pattern IDENTIFIER = Pattern.compile(NAME);
  private static final Pattern MODULE = Pattern.compile(NAME + "(\\." + NAME + ")*");
  // "import a.b as c, d" or "from a.b import (c as d, e)", then perhaps a comment
  private static final Pattern STATEMENT =
      Pattern.compile("(?:import\\s+([^#]*)|from\\s+(\\S+)\\s+import\\s+([^#]*))(?:#.*)?");

  private PythonImports() {}

  /** Heavy modules and candidate submodules {@code source} imports, in order, each once. */
  public static List<String> heavy(String source) {
    Set<String> names = new LinkedHashSet<>();
    // indexOf first: a program without the word "import" (most) costs one vectorised scan.
    if (source.indexOf("import") < 0) {
      return List.of();
    }
    for (String line : source.split("\n")) {
      if (line.indexOf("import") < 0) {
        continue;
      }
      for (String statement : line.split(";")) {
        read(statement.strip(), names);
      }
    }
    return List.copyOf(names);
  }

  private static void read(String statement, Set<String> names) {
    Matcher m = STATEMENT.matcher(statement);
    if (!m.matches()) {
      return;
    }
    if (m.group(1) != null) {
      for (String part : m.group(1).split(",")) {
        addIfHeavy(part.strip().split("\\s+")[0], names);
      }
    } else if (addIfHeavy(m.group(2), names)) {
      for (String part : m.group(3).replaceAll("[()\\\\]", "").split(",")) {
        String name = part.strip().split("\\s+")[0];
        if (IDENTIFIER.matcher(name).matches()) { // not "*"
          names.add(m.group(2) + "." + name);
        }
      }
    }
  }

  private static boolean addIfHeavy(String module, Set<String> names) {
    if (!MODULE.matcher(module).matches() || !HEAVY.contains(module.split("\\.")[0])) {
      return false;
    }
    names.add(module);
    return true;
  }

  /** Every parent package of each name, added before it: importing a.b imports a. */
  public static List<String> withParents(List<String> names) {
    Set<String> all = new LinkedHashSet<>();
    for (String name : names) {
      for (int dot = name.indexOf('.'); dot >= 0; dot = name.indexOf('.', dot + 1)) {
        all.add(name.substring(0, dot));
      }
      all.add(name);
    }
    return List.copyOf(all);
  }
}
