package dev.cinchmcp.backend.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;

/**
 * The pieces of the host's /etc a sandbox sees, read-only: only what packages under /usr need
 * (Debian's python3-numpy, python3-matplotlib), nothing of the machine's identity or users.
 *
 * <p>gVisor resolves every link inside the sandbox's own mount tree, so a link to outside the
 * visible directories dangles inside. A piece that is itself a link, or not owned by /etc's owner,
 * is left out: a bind follows its source on the host.
 */
final class HostEtc {

  /** Each with why; one missing on this machine is left out. */
  static final List<Piece> PIECES =
      List.of(
          // numpy and scipy load libblas.so.3 and liblapack.so.3 through /etc/alternatives.
          new Piece("alternatives", true),
          // without fontconfig's, "Fontconfig error: Cannot load default config file" on stderr
          new Piece("fonts", true),
          // Debian's matplotlib reads its defaults from here only.
          new Piece("matplotlibrc", false));

  /** {@code directory}: whether it must be a directory (else a regular file). */
  record Piece(String name, boolean directory) {}

  record Bind(Path source, String destination) {}

  private HostEtc() {}

  /**
   * The pieces under {@code etc} that can be shown: a real directory or file, owned by {@code
   * etc}'s owner, not writable by group or others.
   */
  static List<Bind> binds(Path etc) {
    List<Bind> binds = new ArrayList<>();
    Integer owner = owner(etc);
    if (owner == null) {
      return List.of();
    }
    for (Piece piece : PIECES) {
      Path source = etc.resolve(piece.name());
      if (trusted(source, piece.directory(), owner)) {
        binds.add(new Bind(source, "/etc/" + piece.name()));
      }
    }
    return List.copyOf(binds);
  }

  private static boolean trusted(Path source, boolean directory, int owner) {
    try {
      PosixFileAttributes attributes =
          Files.readAttributes(source, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      boolean rightKind = directory ? attributes.isDirectory() : attributes.isRegularFile();
      return rightKind
          && Integer.valueOf(owner).equals(owner(source))
          && !attributes.permissions().contains(PosixFilePermission.GROUP_WRITE)
          && !attributes.permissions().contains(PosixFilePermission.OTHERS_WRITE);
    } catch (IOException | UnsupportedOperationException e) {
      return false; // missing or unreadable: not shown
    }
  }

  private static Integer owner(Path path) {
    try {
      return (Integer) Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS);
    } catch (IOException | UnsupportedOperationException e) {
      return null;
    }
  }
}
