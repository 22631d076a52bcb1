package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.PythonBootstrap;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * matplotlib's font list, made once on the host (a first import scans the fonts: 1.5-3 s of 10 s at
 * half a CPU under gVisor), remade when matplotlib or the fonts change; each bundle gets a hard
 * link that {@link PythonBootstrap} copies into {@code /tmp}.
 */
final class MatplotlibFontCache {

  static final String SANDBOX_DIR = PythonBootstrap.FONT_CACHE_DIR;

  private static final Logger log = LoggerFactory.getLogger(MatplotlibFontCache.class);

  /** What the list depends on besides matplotlib itself. */
  private static final List<String> FONT_DIRS =
      List.of("/usr/share/fonts", "/usr/local/share/fonts", "/etc/fonts");

  private static final long BUILD_TIMEOUT_SECONDS = 60;

  private static final Set<PosixFilePermission> PRIVATE =
      PosixFilePermissions.fromString("rwx------");

  private final Path dir;
  private volatile Path file;
  private volatile Process scan;
  private volatile boolean stopped;
  private volatile Thread builder;

  MatplotlibFontCache(Path stateRoot) {
    this.dir = stateRoot.resolve("matplotlib");
  }

  Optional<Path> file() {
    return Optional.ofNullable(file);
  }

  synchronized void buildInBackground(Path python, Path matplotlib) {
    if (stopped) {
      return;
    }
    Thread maker = new Thread(() -> build(python, matplotlib), "cinchmcp-font-list");
    maker.setDaemon(true);
    maker.setPriority(Thread.MIN_PRIORITY);
    builder = maker;
    maker.start();
  }

  /** Makes the list unless one newer than {@code matplotlib}'s folder and the fonts is there. */
  void build(Path python, Path matplotlib) {
    if (stopped) {
      return;
    }
    try {
      Optional<Path> existing = firstList(dir);
      long newest = newestChange(matplotlib);
      if (existing.isPresent() && Files.getLastModifiedTime(existing.get()).toMillis() >= newest) {
        file = existing.get();
        return;
      }
      make(python);
    } catch (IOException | RuntimeException e) {
      log.debug("No font list for matplotlib: {}", e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Kills a scan under way and starts no other; says whether there was one. */
  boolean stop() {
    synchronized (this) {
      stopped = true; // with buildInBackground's check: no builder thread starts after this
    }
    Process running = scan;
    boolean alive = running != null && running.isAlive();
    if (alive) {
      running.destroyForcibly();
    }
    return alive;
  }

  void awaitStopped(long millis) throws InterruptedException {
    Thread maker = builder;
    if (maker != null) {
      maker.join(Math.max(1, millis));
    }
  }

  void addTo(Path rootfs) throws IOException {
    Path list = file;
    Path inside = rootfs.resolve(SANDBOX_DIR.substring(1));
    if (list == null || Files.exists(inside)) {
      return;
    }
    Files.createDirectory(inside);
    try {
      Files.createLink(inside.resolve(list.getFileName()), list);
    } catch (IOException | UnsupportedOperationException e) {
      Files.copy(list, inside.resolve(list.getFileName()));
    }
  }

  /** The folder of the matplotlib the sandbox's Python imports: the first in {@code dirs}. */
  static Optional<Path> matplotlibIn(List<String> dirs) {
    return dirs.stream()
        .map(dir -> Path.of(dir, "matplotlib"))
        .filter(Files::isDirectory)
        .findFirst();
  }

  private static Optional<Path> firstList(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return Optional.empty();
    }
    try (DirectoryStream<Path> lists = Files.newDirectoryStream(dir, "fontlist-*.json")) {
      Iterator<Path> first = lists.iterator();
      return first.hasNext() ? Optional.of(first.next()) : Optional.empty();
    }
  }

  private static long newestChange(Path matplotlib) throws IOException {
    long newest = Files.getLastModifiedTime(matplotlib).toMillis();
    for (String fonts : FONT_DIRS) {
      Path path = Path.of(fonts);
      if (Files.isDirectory(path)) {
        newest = Math.max(newest, Files.getLastModifiedTime(path).toMillis());
      }
    }
    return newest;
  }

  private void make(Path python) throws IOException, InterruptedException {
    Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PRIVATE));
    removeAbandonedBuilds();
    Path work =
        Files.createTempDirectory(
            dir.getParent(), "matplotlib-build-", PosixFilePermissions.asFileAttribute(PRIVATE));
    try {
      ProcessBuilder builder =
          new ProcessBuilder(python.toString(), "-c", "import matplotlib.font_manager")
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD);
      builder.environment().clear();
      builder
          .environment()
          .putAll(Map.of("PATH", "/usr/bin:/bin", "HOME", work.toString(), "MPLBACKEND", "Agg"));
      builder.environment().put("MPLCONFIGDIR", work.toString());
      if (stopped) {
        return;
      }
      Process process = builder.start();
      scan = process;
      if (stopped) {
        process.destroyForcibly();
      }
      process.getOutputStream().close();
      if (!process.waitFor(BUILD_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return;
      }
      Optional<Path> list = process.exitValue() == 0 ? firstList(work) : Optional.empty();
      if (list.isPresent()) {
        Path target = dir.resolve(list.get().getFileName()); // same file system: atomic
        Files.move(list.get(), target, StandardCopyOption.ATOMIC_MOVE);
        Files.setLastModifiedTime(target, FileTime.fromMillis(System.currentTimeMillis()));
        file = target;
        log.debug("matplotlib's font list made for the sandboxes: {}", target);
      }
    } finally {
      StateDirectory.deleteTree(work);
    }
  }

  /** Build folders of servers stopped mid-scan, older than a build may take. */
  private void removeAbandonedBuilds() throws IOException {
    long before = System.currentTimeMillis() - TimeUnit.SECONDS.toMillis(2 * BUILD_TIMEOUT_SECONDS);
    try (DirectoryStream<Path> builds =
        Files.newDirectoryStream(dir.getParent(), "matplotlib-build-*")) {
      for (Path build : builds) {
        if (Files.getLastModifiedTime(build).toMillis() < before) {
          StateDirectory.deleteTree(build);
        }
      }
    }
  }
}
