package dev.cinchmcp.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SelfMadeArchiveTest {

  private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
  private static final Instant CUTOFF = NOW.minus(Duration.ofDays(SelfMadeArchive.UNUSED_FOR_DAYS));

  @TempDir Path dir;

  @Test
  void removesOnlyOurFilesUnusedForAMonthAndNeverTheOneKept() throws IOException {
    Path keep = file("17-00000000000000aa.jsa", 400);
    file("17-00000000000000aa.jsa.lock", 400);
    file("17-00000000000000aa.jsa.log", 400);
    file("17-00000000000000bb.jsa", 31); // another jar's, unused for 31 days: goes
    file("17-00000000000000bb.jsa.lock", 0); // its lock and log go with it, however new
    file("17-00000000000000bb.jsa.log", 0);
    file("17-00000000000000ff.jsa.log", 31); // an orphaned log, old: goes
    file("17-0000000000000011.jsa.log", 1); // an orphaned log, new: stays
    file("25-00000000000000cc.aot", 29); // used 29 days ago: stays
    file("25-00000000000000dd.aot.0f8fad5b-d9cb-469f-a165-70867728950e.tmp", 40); // left by a crash
    file("25-00000000000000dd.aot.0f8fad5b-d9cb-469f-a165-70867728950e.tmp.config", 40);
    file("notes.txt", 400); // not ours: stays, however old
    file("17-xyz.jsa", 400);
    Files.createSymbolicLink(dir.resolve("17-00000000000000ee.jsa"), dir.resolve("notes.txt"));
    setAge(dir.resolve("17-00000000000000ee.jsa"), 400);

    SelfMadeArchive.removeUnusedSince(dir, keep, CUTOFF);

    assertEquals(
        new TreeSet<>(
            Set.of(
                "17-00000000000000aa.jsa",
                "17-00000000000000aa.jsa.lock",
                "17-00000000000000aa.jsa.log",
                "25-00000000000000cc.aot",
                "17-0000000000000011.jsa.log",
                "notes.txt",
                "17-xyz.jsa",
                "17-00000000000000ee.jsa")),
        names());
  }

  @Test
  void markingUsedKeepsAnOldArchive() throws IOException {
    Path old = file("17-00000000000000bb.jsa", 90);
    SelfMadeArchive.markUsed(old);
    SelfMadeArchive.removeUnusedSince(
        dir,
        dir.resolve("17-00000000000000aa.jsa"),
        Instant.now().minus(Duration.ofDays(SelfMadeArchive.UNUSED_FOR_DAYS)));
    assertTrue(Files.exists(old));
  }

  @Test
  void aMissingDirectoryIsNoError() {
    SelfMadeArchive.removeUnusedSince(dir.resolve("gone"), dir.resolve("x"), CUTOFF);
  }

  private Path file(String name, int daysOld) throws IOException {
    Path p = Files.writeString(dir.resolve(name), "x");
    setAge(p, daysOld);
    return p;
  }

  private static void setAge(Path p, int daysOld) throws IOException {
    FileTime t = FileTime.from(NOW.minus(Duration.ofDays(daysOld)));
    if (Files.isSymbolicLink(p)) {
      return; // a link's own time cannot be set portably; it is never removed anyway
    }
    Files.setLastModifiedTime(p, t);
  }

  private Set<String> names() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return new TreeSet<>(s.map(p -> p.getFileName().toString()).toList());
    }
  }
}
