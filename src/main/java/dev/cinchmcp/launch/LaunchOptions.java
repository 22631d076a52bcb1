package dev.cinchmcp.launch;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

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

  /**
   * The same, read straight from the jar's zip: at a plain start this is one of the few things the
   * JVM without an archive does, and a class-path resource lookup costs it some 5 ms where this
   * costs one. Falls back to {@link #fast()}.
   */
  public static List<String> fast(Path jar) {
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      ZipEntry entry =
          zip.getEntry(LaunchOptions.class.getPackageName().replace('.', '/') + "/" + RESOURCE);
      if (entry != null) {
        try (InputStream in = zip.getInputStream(entry)) {
          return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
      }
    } catch (IOException | RuntimeException e) {
      // read it the usual way
    }
    return fast();
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
