package dev.cinchmcp.launch;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The fast launch's JVM options, read from {@code jvm-options.txt} in the jar: the one place that
 * holds them (the build writes the bundle's manifest from the same file).
 */
public final class LaunchOptions {

  static final String RESOURCE = "jvm-options.txt";

  private LaunchOptions() {}

  /** The options, in file order, without comments or blank lines. */
  public static List<String> fast() {
    try (InputStream in = LaunchOptions.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from the jar");
      }
      return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<String> parse(String text) {
    List<String> options = new ArrayList<>();
    for (String line : text.split("\n")) {
      String option = line.strip();
      if (!option.isEmpty() && !option.startsWith("#")) {
        options.add(option);
      }
    }
    return options;
  }
}
