package dev.cinchmcp.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fast launch's options: one file, read the same way by every launch that uses it. */
class LaunchOptionsTest {

  @Test
  void commentsAndBlankLinesAreNotOptions() {
    assertEquals(
        List.of("-Xmx1m", "-XX:+UseSerialGC"),
        LaunchOptions.parse("# why\n-Xmx1m\n\n   -XX:+UseSerialGC  \n# more\n"));
  }

  @Test
  void theFileKeepsAnOutOfMemoryErrorFromEverEndingQuietlyOrOnStdout() {
    List<String> options = LaunchOptions.fast();
    assertTrue(options.contains("-XX:+ExitOnOutOfMemoryError"), options.toString());
    assertTrue(options.contains("-XX:+DisplayVMOutputToStderr"), options.toString());
    assertTrue(options.contains("-Xlog:all=warning:stderr"), options.toString());
    assertTrue(options.stream().anyMatch(o -> o.startsWith("-Xmx")), options.toString());
  }

  @Test
  void theArchiveKindFollowsTheJavaVersion() {
    assertEquals(ArchiveKind.DYNAMIC_CDS, ArchiveKind.forFeatureVersion(17));
    assertEquals(ArchiveKind.DYNAMIC_CDS, ArchiveKind.forFeatureVersion(24));
    assertEquals(ArchiveKind.AOT_CACHE, ArchiveKind.forFeatureVersion(25));
  }

  @Test
  void readStraightFromAJarTheyAreTheSameAsFromTheClassPath(@TempDir Path dir) throws Exception {
    Path jar = dir.resolve("cinch-mcp.jar");
    try (java.util.zip.ZipOutputStream zip =
        new java.util.zip.ZipOutputStream(Files.newOutputStream(jar))) {
      zip.putNextEntry(new java.util.zip.ZipEntry("dev/cinchmcp/launch/jvm-options.txt"));
      try (var in = LaunchOptions.class.getResourceAsStream("jvm-options.txt")) {
        in.transferTo(zip);
      }
      zip.closeEntry();
    }
    assertEquals(LaunchOptions.fast(), LaunchOptions.fast(jar));
    // Not a jar, or no such entry: the class path's file, as before.
    Path notAJar = Files.writeString(dir.resolve("x.jar"), "not a zip");
    assertEquals(LaunchOptions.fast(), LaunchOptions.fast(notAJar));
  }
}
