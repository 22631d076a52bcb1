package dev.cinchmcp.launch;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The per-user cache directory for self-made archives, checked as a trusted path: the JVM maps what
 * it finds there as code, so a file another user could plant or swap must never be used. Every
 * level from the root down is a real directory (no link), owned by root or this user and writable
 * by no one else; the levels made here are this user's alone (700). Without POSIX permissions
 * (Windows), the per-user {@code %LOCALAPPDATA%} and the no-link check stand in.
 */
record TrustedDirectory(Path path, UserPrincipal user, boolean posix) {

  private static final Set<PosixFilePermission> OTHERS_WRITE =
      Set.of(PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);
  private static final Set<PosixFilePermission> OWNER_ONLY =
      PosixFilePermissions.fromString("rwx------");

  /** {@code cinch-mcp/archives} in this user's cache, made if missing; empty if not trusted. */
  static Optional<TrustedDirectory> forUser(Map<String, String> env, String osName) {
    Optional<Path> base = cacheBase(env, osName);
    if (base.isEmpty()) {
      return Optional.empty();
    }
    try {
      UserPrincipal user =
          FileSystems.getDefault()
              .getUserPrincipalLookupService()
              .lookupPrincipalByName(System.getProperty("user.name"));
      return open(base.get(), base.get().resolve("cinch-mcp").resolve("archives"), user);
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return Optional.empty();
    }
  }

  static Optional<Path> cacheBase(Map<String, String> env, String osName) {
    // No lambdas: this runs at every plain start, and a JVM's first lambda costs tens of ms.
    String os = osName.toLowerCase(java.util.Locale.ROOT);
    if (os.startsWith("windows")) {
      return Optional.ofNullable(absolute(env.get("LOCALAPPDATA")));
    }
    Path home = absolute(env.get("HOME"));
    home = home != null ? home : absolute(System.getProperty("user.home"));
    Path xdg = absolute(env.get("XDG_CACHE_HOME"));
    return home == null
        ? Optional.empty()
        : Optional.of(
            os.startsWith("mac")
                ? home.resolve("Library").resolve("Caches")
                : xdg != null ? xdg : home.resolve(".cache"));
  }

  /** The value as an absolute path, normalized; null if it is none. */
  private static Path absolute(String value) {
    try {
      Path p = value == null || value.isBlank() ? null : Path.of(value);
      return p != null && p.isAbsolute() ? p.normalize() : null;
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** Checks every level of {@code dir}, making the missing ones below {@code base} (mode 700). */
  static Optional<TrustedDirectory> open(Path base, Path dir, UserPrincipal user)
      throws IOException {
    boolean posix = Files.getFileAttributeView(dir.getRoot(), PosixFileAttributeView.class) != null;
    Path level = dir.getRoot();
    for (Path name : dir) {
      level = level.resolve(name);
      if (Files.notExists(level, LinkOption.NOFOLLOW_LINKS)) {
        if (!level.startsWith(base)) {
          return Optional.empty(); // only the levels below the cache base are ours to make
        }
        try {
          if (posix) {
            Files.createDirectory(level, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
          } else {
            Files.createDirectory(level);
          }
        } catch (java.nio.file.FileAlreadyExistsException raced) {
          // another first start made it a moment ago: check it like any other
        }
      }
      boolean ours = level.startsWith(base) && !level.equals(base);
      if (!trusted(level, false, ours, posix, user)) {
        return Optional.empty();
      }
    }
    return Optional.of(new TrustedDirectory(dir, user, posix));
  }

  /** Whether a file in this directory may be used: a regular file of ours, no one else's. */
  boolean trustsFile(Path file) {
    try {
      return file.getParent().equals(path) && trusted(file, true, true, posix, user);
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }

  /**
   * A directory (or {@code file}), not a link, writable by no one else; {@code ours} is this user's
   * (a directory of ours: mode 700), any other this user's or root's. One stat per level.
   */
  private static boolean trusted(
      Path p, boolean file, boolean ours, boolean posix, UserPrincipal user) throws IOException {
    BasicFileAttributes attributes =
        posix
            ? Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
            : Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    if (file ? !attributes.isRegularFile() : !attributes.isDirectory()) {
      return false;
    }
    if (!(attributes instanceof PosixFileAttributes a)) {
      return !ours || user.equals(Files.getOwner(p, LinkOption.NOFOLLOW_LINKS));
    }
    if (ours && !file) {
      return user.equals(a.owner()) && a.permissions().equals(OWNER_ONLY);
    }
    return (user.equals(a.owner()) || (!ours && "root".equals(a.owner().getName())))
        && Collections.disjoint(a.permissions(), OTHERS_WRITE);
  }
}
