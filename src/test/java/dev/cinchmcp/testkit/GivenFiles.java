package dev.cinchmcp.testkit;

import java.util.LinkedHashMap;
import java.util.Map;

/** The {@code files} argument of a call as tests give it: paths to texts, in the order given. */
public final class GivenFiles {

  private GivenFiles() {}

  /** {@code path, text, path, text, ...}, kept in this order. */
  public static Map<String, String> of(String... pathsAndTexts) {
    if (pathsAndTexts.length % 2 != 0) {
      throw new IllegalArgumentException("a text for every path");
    }
    Map<String, String> files = new LinkedHashMap<>();
    for (int i = 0; i < pathsAndTexts.length; i += 2) {
      files.put(pathsAndTexts[i], pathsAndTexts[i + 1]);
    }
    return files;
  }
}
