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
 * Removes the archives (15-30 MB each) of jars and JVMs no longer used. Every start that maps an
 * archive sets its modification time, so one untouched for {@link #UNUSED_FOR_DAYS} days belongs to
 * a jar or Java gone or no longer started. Only this server's own file names, never a link.
 */
final class StaleArchives {

  static final int UNUSED_FOR_DAYS = 30;

  /** An archive ({@code 17-0123456789abcdef.jsa}) or its lock, log or unfinished file. */
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
   * Deletes in {@code dir} our files other than {@code keep}'s last modified before {@code cutoff}.
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
