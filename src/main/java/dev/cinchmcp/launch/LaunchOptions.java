package dev.cinchmcp.launch;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipFile;

/** The fast launch's JVM options, from {@code jvm-options.txt} in the jar (their one place). */
public final class LaunchOptions {

  static final String RESOURCE = "jvm-options.txt";

  private LaunchOptions() {}

  /** The options for this JVM's Java version, in file order, without comments or blank lines. */
  public static List<String> fast() {
    return forJava(Runtime.version().feature());
  }

  /** The options a JVM of the given feature version (17, 25, ...) is started with. */
  public static List<String> forJava(int feature) {
    try (InputStream in = LaunchOptions.class.getResourceAsStream(RESOURCE)) {
      return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), feature);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The same, read straight from the jar's zip: in a plain start's JVM (no archive) a class-path
   * resource lookup costs some 5 ms where this costs one.
   */
  public static List<String> fast(Path jar) {
    try (ZipFile zip = new ZipFile(jar.toFile());
        InputStream in = zip.getInputStream(zip.getEntry("dev/cinchmcp/launch/" + RESOURCE))) {
      return parse(
          new String(in.readAllBytes(), StandardCharsets.UTF_8), Runtime.version().feature());
    } catch (IOException | RuntimeException e) {
      return fast(); // not a jar, or no such entry (a NullPointerException): the usual way
    }
  }

  /**
   * The options of the file's text for Java {@code feature}: a line that begins with {@code [java
   * 25+]}, {@code [java 17-24]} or {@code [java 21]} counts only there. (No regex, no lambda: this
   * runs at every plain start.)
   */
  static List<String> parse(String text, int feature) {
    List<String> options = new ArrayList<>();
    for (String line : text.split("\n")) {
      String option = line.strip();
      if (option.isEmpty() || option.startsWith("#")) {
        continue;
      }
      if (option.startsWith("[")) {
        int end = option.indexOf(']');
        String guard = end < 0 ? "" : option.substring(1, end).strip();
        String versions = guard.startsWith("java ") ? guard.substring(5).strip() : "";
        boolean orLater = versions.endsWith("+");
        int dash = versions.indexOf('-');
        try {
          int from =
              Integer.parseInt(
                  orLater
                      ? versions.substring(0, versions.length() - 1)
                      : dash > 0 ? versions.substring(0, dash) : versions);
          int to =
              orLater ? feature : dash > 0 ? Integer.parseInt(versions.substring(dash + 1)) : from;
          if (feature < from || feature > to) {
            continue;
          }
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(RESOURCE + ": not a [java ...] guard: " + option);
        }
        option = option.substring(end + 1).strip();
      }
      options.add(option);
    }
    return options;
  }
}
