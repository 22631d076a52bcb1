package dev.cinchmcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The shape of {@code src/main} that the house keeps (issue 37): packages without cycles, a small
 * seam into {@code backend}, classes of a readable size, each logging under its own name. Read from
 * the sources, so a failure names the file to look at.
 */
class ArchitectureTest {

  private static final Path SOURCES = Path.of("src/main/java");
  private static final Pattern IMPORT =
      Pattern.compile("^import (?:static )?(dev\\.cinchmcp\\.[\\w.]+);", Pattern.MULTILINE);
  private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);

  /** The most types of backend the rest may use: the runner, the program, the result, ... */
  private static final int SEAM = 12;

  private static final int MAX_LINES = 400;

  @Test
  void noPackageDependsOnItselfThroughOthers() {
    Map<String, Set<String>> uses = new TreeMap<>();
    for (Source source : sources()) {
      for (String type : source.imports()) {
        String used = packageOf(type);
        if (!used.equals(source.pkg())) {
          uses.computeIfAbsent(source.pkg(), p -> new TreeSet<>()).add(used);
        }
      }
    }
    for (String start : uses.keySet()) {
      List<String> cycle = pathBack(start, uses);
      assertTrue(cycle.isEmpty(), "a package cycle: " + String.join(" -> ", cycle));
    }
  }

  @Test
  void theRestUsesAHandfulOfBackendTypes() {
    Set<String> seam = new TreeSet<>();
    for (Source source : sources()) {
      if (!source.pkg().startsWith("dev.cinchmcp.backend")) {
        source.imports().stream()
            .filter(t -> t.startsWith("dev.cinchmcp.backend."))
            .forEach(seam::add);
      }
    }
    assertTrue(seam.size() <= SEAM, seam.size() + " backend types used outside it: " + seam);
  }

  @Test
  void noClassOutgrowsAReadableSize() {
    List<String> large = new ArrayList<>();
    for (Source source : sources()) {
      if (source.lines() > MAX_LINES) {
        large.add(source.file() + " (" + source.lines() + " lines)");
      }
    }
    assertEquals(List.of(), large, "split by idea, not by size, what is over " + MAX_LINES);
  }

  @Test
  void eachClassLogsUnderItsOwnName() {
    Pattern logger = Pattern.compile("LoggerFactory\\.getLogger\\((\\w+)\\.class\\)");
    for (Source source : sources()) {
      Matcher m = logger.matcher(source.text());
      while (m.find()) {
        assertEquals(source.className(), m.group(1), source.file() + " logs under another's name");
      }
    }
  }

  /** A path from {@code start} back to itself, or empty. */
  private static List<String> pathBack(String start, Map<String, Set<String>> uses) {
    Deque<List<String>> paths = new ArrayDeque<>();
    paths.add(List.of(start));
    Set<String> seen = new TreeSet<>();
    while (!paths.isEmpty()) {
      List<String> path = paths.poll();
      for (String next : uses.getOrDefault(path.get(path.size() - 1), Set.of())) {
        List<String> longer = new ArrayList<>(path);
        longer.add(next);
        if (next.equals(start)) {
          return longer;
        }
        if (seen.add(next)) {
          paths.add(longer);
        }
      }
    }
    return List.of();
  }

  private static String packageOf(String type) {
    String[] parts = type.split("\\.");
    int end = 0;
    while (end < parts.length && !Character.isUpperCase(parts[end].charAt(0))) {
      end++;
    }
    return String.join(".", List.of(parts).subList(0, end));
  }

  private record Source(Path file, String text) {
    String pkg() {
      Matcher m = PACKAGE.matcher(text);
      return m.find() ? m.group(1) : "";
    }

    List<String> imports() {
      List<String> types = new ArrayList<>();
      Matcher m = IMPORT.matcher(text);
      while (m.find()) {
        types.add(typeOf(m.group(1))); // the top-level type: of a nested one, of a static member
      }
      return types;
    }

    long lines() {
      return text.lines().count();
    }

    String className() {
      return file.getFileName().toString().replace(".java", "");
    }

    private static String typeOf(String name) {
      String[] parts = name.split("\\.");
      StringBuilder type = new StringBuilder();
      for (String part : parts) {
        if (type.length() > 0) {
          type.append('.');
        }
        type.append(part);
        if (Character.isUpperCase(part.charAt(0))) {
          break;
        }
      }
      return type.toString();
    }
  }

  private static List<Source> sources() {
    try (Stream<Path> files = Files.walk(SOURCES)) {
      return files
          .filter(f -> f.toString().endsWith(".java"))
          .filter(f -> !f.getFileName().toString().equals("package-info.java"))
          .map(f -> new Source(f, read(f)))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
