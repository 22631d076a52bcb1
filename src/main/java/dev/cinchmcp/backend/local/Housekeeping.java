package dev.cinchmcp.backend.local;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Run ids ({@code cinchmcp-<pid>-<n>}), and the clean-up of what servers that are gone left: the
 * pid says whose a leftover is, so two servers sharing a state directory never delete each other's.
 */
final class Housekeeping {

  private static final Logger log = LoggerFactory.getLogger(Housekeeping.class);
  static final String PREFIX = "cinchmcp-";
  private static final long OWN_PID = ProcessHandle.current().pid();
  private static final AtomicLong COUNTER = new AtomicLong();

  private Housekeeping() {}

  static String nextRunId() {
    return PREFIX + OWN_PID + "-" + COUNTER.incrementAndGet();
  }

  static boolean isLeftover(String name) {
    if (!name.startsWith(PREFIX)) {
      return false;
    }
    String rest = name.substring(PREFIX.length());
    int dash = rest.indexOf('-');
    if (dash <= 0) {
      return false;
    }
    try {
      long pid = Long.parseLong(rest.substring(0, dash));
      return pid != OWN_PID && ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true);
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /** Sandboxes, bundles and cgroups of servers that are gone, in this user's state directory. */
  static void removeLeftovers(SandboxHost host) {
    int removed = 0;
    Runsc runsc = host.runsc();
    for (String id : runsc.list()) {
      if (isLeftover(id)) {
        runsc.deleteForce(id);
        removed++;
      }
    }
    removed += deleteMatching(runsc.root());
    removed += deleteMatching(host.state().bundles());
    host.cgroups().ifPresent(cgroups -> cgroups.removeLeftovers(Housekeeping::isLeftover));
    if (removed > 0) {
      log.info("Removed {} leftovers of earlier local sandbox runs", removed);
    }
  }

  private static int deleteMatching(Path dir) {
    int removed = 0;
    if (!Files.isDirectory(dir)) {
      return 0;
    }
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        if (isLeftover(entry.getFileName().toString())) {
          deleteTree(entry);
          removed++;
        }
      }
    } catch (IOException e) {
      log.warn("Could not list {}: {}", dir, e.toString());
    }
    return removed;
  }

  static void deleteTree(Path root) {
    try {
      // walkFileTree does not follow links: a link is deleted, never its target.
      Files.walkFileTree(
          root,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                throws IOException {
              Files.deleteIfExists(file);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
              Files.deleteIfExists(dir);
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (NoSuchFileException e) {
      // already gone
    } catch (IOException e) {
      log.warn("Could not delete {}: {}", root, e.toString());
    }
  }
}
