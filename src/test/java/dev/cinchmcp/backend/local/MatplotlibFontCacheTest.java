package dev.cinchmcp.backend.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.testkit.Await;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * matplotlib's font list made on the host with the real Debian matplotlib (.ci/run installs it).
 */
class MatplotlibFontCacheTest {

  private static Path matplotlib() {
    Optional<Path> found =
        MatplotlibFontCache.matplotlibIn(List.of("/usr/lib/python3/dist-packages"));
    Assumptions.assumeTrue(
        found.isPresent() && Files.isExecutable(Path.of("/usr/bin/python3")),
        "Debian's python3-matplotlib is not installed");
    return found.get();
  }

  @Test
  void theListIsMadeOnceInThePrivateStateAndLinkedIntoABundle(@TempDir Path state)
      throws IOException {
    Path matplotlib = matplotlib();
    MatplotlibFontCache cache = new MatplotlibFontCache(state);
    assertTrue(cache.file().isEmpty());
    cache.build(Path.of("/usr/bin/python3"), matplotlib);
    Path list = cache.file().orElseThrow(() -> new AssertionError("no font list was made"));
    assertTrue(list.getFileName().toString().matches("fontlist-v\\d+\\.json"), list.toString());
    assertEquals(
        "rwx------",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(list.getParent())));
    String json = Files.readString(list);
    assertTrue(json.contains("\"/usr/share/"), "fonts under /usr, as the sandbox sees them");
    try (var left = Files.list(state)) {
      assertEquals(List.of(list.getParent()), left.toList(), "no build folder left behind");
    }

    // Up to date: found, not made again.
    long made = Files.getLastModifiedTime(list).toMillis();
    MatplotlibFontCache again = new MatplotlibFontCache(state);
    again.build(Path.of("/usr/bin/false"), matplotlib);
    assertEquals(Optional.of(list), again.file());
    assertEquals(made, Files.getLastModifiedTime(list).toMillis());

    Path rootfs = Files.createDirectory(state.resolve("rootfs"));
    again.addTo(rootfs);
    assertEquals(
        json,
        Files.readString(
            rootfs
                .resolve(MatplotlibFontCache.SANDBOX_DIR.substring(1))
                .resolve(list.getFileName())));
  }

  @Test
  void aBuildFolderAServerLeftLongAgoGoesAtTheNextBuild(@TempDir Path state) throws IOException {
    Path abandoned = Files.createDirectories(state.resolve("matplotlib-build-1/inside"));
    Files.setLastModifiedTime(
        abandoned.getParent(), FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));
    Path underWay = Files.createDirectory(state.resolve("matplotlib-build-2"));
    new MatplotlibFontCache(state).build(Path.of("/usr/bin/false"), matplotlib());
    assertFalse(Files.exists(abandoned.getParent()));
    assertTrue(Files.exists(underWay), "a build another server may have under way stays");
  }

  @Test
  void aScanThatFailsLeavesNoListAndNothingInTheBundle(@TempDir Path state) throws IOException {
    MatplotlibFontCache cache = new MatplotlibFontCache(state);
    cache.build(Path.of("/usr/bin/false"), matplotlib());
    assertTrue(cache.file().isEmpty());
    Path rootfs = Files.createDirectory(state.resolve("rootfs"));
    cache.addTo(rootfs);
    try (var entries = Files.list(rootfs)) {
      assertFalse(entries.findAny().isPresent());
    }
  }

  @Test
  void aStoppedCacheWritesNothing(@TempDir Path state) throws Exception {
    MatplotlibFontCache cache = new MatplotlibFontCache(state);
    cache.stop();
    cache.build(Path.of("/usr/bin/python3"), matplotlib());
    cache.buildInBackground(Path.of("/usr/bin/python3"), matplotlib());
    cache.awaitStopped(10_000);
    try (var entries = Files.list(state)) {
      assertEquals(List.of(), entries.toList());
    }
  }

  @Test
  void aStopEndsTheScanAndTheWaitOutlastsItsCleanUp(@TempDir Path state, @TempDir Path bin)
      throws Exception {
    // A "python" that says it has started, then scans for ever.
    Path python = bin.resolve("python");
    Files.writeString(python, "#!/bin/sh\ntouch \"$HOME/started\"\nexec sleep 60\n");
    python.toFile().setExecutable(true);
    MatplotlibFontCache cache = new MatplotlibFontCache(state);
    cache.buildInBackground(python, matplotlib());
    Await.until(
        () -> {
          try (var builds = Files.newDirectoryStream(state, "matplotlib-build-*")) {
            for (Path build : builds) {
              if (Files.exists(build.resolve("started"))) {
                return true;
              }
            }
          }
          return false;
        },
        Duration.ofSeconds(30),
        "the scan to start");
    assertTrue(cache.stop(), "a scan was under way");
    cache.awaitStopped(30_000);
    try (var entries = Files.list(state)) {
      assertEquals(List.of(state.resolve("matplotlib")), entries.toList(), "no build folder left");
    }
    assertTrue(cache.file().isEmpty());
  }
}
