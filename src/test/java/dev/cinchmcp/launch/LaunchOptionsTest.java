package dev.cinchmcp.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
        LaunchOptions.parse("# why\n-Xmx1m\n\n   -XX:+UseSerialGC  \n# more\n", 17));
  }

  @Test
  void aGuardedLineCountsOnlyOnItsJavaVersions() {
    String text =
        "-Xmx1m\n[java 17-24] -XX:CICompilerCount=1\n[java 25+] -XX:CICompilerCount=2\n"
            + "  [ java 21 ]   -Done=21\n";
    assertEquals(List.of("-Xmx1m", "-XX:CICompilerCount=1"), LaunchOptions.parse(text, 17));
    assertEquals(
        List.of("-Xmx1m", "-XX:CICompilerCount=1", "-Done=21"), LaunchOptions.parse(text, 21));
    assertEquals(List.of("-Xmx1m", "-XX:CICompilerCount=1"), LaunchOptions.parse(text, 24));
    assertEquals(List.of("-Xmx1m", "-XX:CICompilerCount=2"), LaunchOptions.parse(text, 25));
    assertEquals(List.of("-Xmx1m", "-XX:CICompilerCount=2"), LaunchOptions.parse(text, 26));
  }

  @Test
  void aMalformedGuardIsAnErrorNotASilentlyDroppedOption() {
    for (String bad : List.of("[jdk 25+] -Xa", "[java x] -Xa", "[java 25+ -Xa", "[java 17-] -Xa")) {
      assertThrows(IllegalArgumentException.class, () -> LaunchOptions.parse(bad, 25), bad);
    }
  }

  @Test
  void theFileHasOneCompilerThreadCountForEveryJava() {
    for (int feature = 17; feature <= 30; feature++) {
      List<String> options = LaunchOptions.forJava(feature);
      assertEquals(
          1,
          options.stream().filter(o -> o.startsWith("-XX:CICompilerCount=")).count(),
          feature + ": " + options);
    }
    assertTrue(LaunchOptions.forJava(17).contains("-XX:CICompilerCount=1"));
    assertTrue(LaunchOptions.forJava(25).contains("-XX:CICompilerCount=2"));
    assertEquals(LaunchOptions.forJava(Runtime.version().feature()), LaunchOptions.fast());
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
    assertFalse(SelfMadeArchive.aotCache(17));
    assertFalse(SelfMadeArchive.aotCache(24));
    assertTrue(SelfMadeArchive.aotCache(25));
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
