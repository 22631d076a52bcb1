package dev.cinchmcp.launch;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.regex.Pattern;

/**
 * Removes the archives of jars and JVMs no longer used: each new jar or Java makes an archive of
 * its own (15-30 MB), and the old ones would otherwise pile up in the cache for good. An archive is
 * marked used (its modification time set to now) at every start that maps it, so one that has not
 * been touched for {@link #UNUSED_FOR_DAYS} days belongs to a jar or a Java that is gone or no
 * longer started. Only this server's own file names are considered, never a link.
 */
final class StaleArchives {

  static final int UNUSED_FOR_DAYS = 30;

  /**
   * An archive ({@code 17-0123456789abcdef.jsa}) or what belongs to one (lock, log, unfinished).
   */
  private static final Pattern OURS =
      Pattern.compile(
          "\\d+-[0-9a-f]{16}\\.(jsa|aot)(\\.lock|\\.log|\\.[0-9a-f-]{36}\\.tmp(\\.config)?)?");

  private StaleArchives() {}

  /** Marks an archive used now; a failure only means it may be made again after a month. */
  static void markUsed(Path archive) {
    try {
      Files.setLastModifiedTime(archive, FileTime.from(Instant.now()));
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      // read-only cache, or a file system without times: nothing to do
    }
  }

  /**
   * Deletes in {@code dir} the archives other than {@code keep} last used before {@code cutoff},
   * with their lock and log, and any other file of ours (an unfinished archive, an orphaned lock or
   * log) last modified before then.
   */
  static void removeUnusedSince(Path dir, Path keep, Instant cutoff) {
    String kept = keep.getFileName().toString();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (name.startsWith(kept) || !OURS.matcher(name).matches() || !unusedSince(entry, cutoff)) {
          continue;
        }
        // Its lock and log first: once an archive is seen gone, nothing of it is left.
        if (name.endsWith(".jsa") || name.endsWith(".aot")) {
          delete(entry.resolveSibling(name + ".lock"));
          delete(entry.resolveSibling(name + ".log"));
        }
        delete(entry);
      }
    } catch (IOException e) {
      // the cache cannot be listed: nothing is removed
    }
  }

  private static boolean unusedSince(Path file, Instant cutoff) {
    try {
      return Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
          && Files.getLastModifiedTime(file, LinkOption.NOFOLLOW_LINKS)
              .toInstant()
              .isBefore(cutoff);
    } catch (IOException e) {
      return false;
    }
  }

  private static void delete(Path file) {
    try {
      if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
        Files.delete(file);
      }
    } catch (IOException e) {
      // gone already, or another trainer's: try again next time
    }
  }
}
