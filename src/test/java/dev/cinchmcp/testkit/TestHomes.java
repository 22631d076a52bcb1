package dev.cinchmcp.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * The HOME the jar tests give the server. The jar keeps its self-made archive only in a cache that
 * no one else can write at any level (it is code the JVM will load), so a HOME under a
 * world-writable folder gets no archive. {@code target/} is used when it is such a place; a clean
 * clone under /tmp is not, and then a folder of this user's own home serves instead.
 */
public final class TestHomes {

  private TestHomes() {}

  /** A folder for test homes, trusted at every level. */
  public static Path base() throws IOException {
    Path target = JarProcess.jar().toAbsolutePath().getParent();
    if (trustedAllTheWayUp(target)) {
      return target;
    }
    Path own = Path.of(System.getProperty("user.home"), ".cache", "cinch-mcp-tests");
    Files.createDirectories(
        own, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    return own;
  }

  /** The one HOME the jar tests share (BigInputIT waits for its archive there). */
  public static Path shared() throws IOException {
    return Files.createDirectories(base().resolve("it-home"));
  }

  private static boolean trustedAllTheWayUp(Path dir) throws IOException {
    for (Path level = dir; level != null; level = level.getParent()) {
      if (Files.isSymbolicLink(level)) {
        return false;
      }
      Set<PosixFilePermission> perms =
          Files.getPosixFilePermissions(level, LinkOption.NOFOLLOW_LINKS);
      if (perms.contains(PosixFilePermission.GROUP_WRITE)
          || perms.contains(PosixFilePermission.OTHERS_WRITE)) {
        return false;
      }
    }
    return true;
  }
}
