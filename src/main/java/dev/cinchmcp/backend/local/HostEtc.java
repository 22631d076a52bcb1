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
 * The pieces of the host's /etc a sandbox sees, read-only: only what packages installed under /usr
 * need to work (Debian's python3-numpy, python3-matplotlib and the like), nothing of the machine's
 * identity or its users. The rest of /etc (passwd, shadow, hostname, machine-id, ssh, ssl, the
 * package manager's and services' configuration) stays absent.
 *
 * <p>Links inside these pieces cannot lead anywhere else: gVisor resolves every symbolic link
 * itself, in the sandbox's own mount tree, never on the host, so a link whose target is outside the
 * visible directories (an alternative an administrator pointed at /opt or /home, say) dangles
 * inside. Its text can be read ({@code readlink}), its target never. A piece that is itself a link,
 * or not the system's (not owned by the owner of /etc), is left out: a bind follows its source on
 * the host.
 */
final class HostEtc {

  /**
   * What is shown, each with why. A piece missing on this machine (another distribution, no
   * matplotlib) is simply left out.
   */
  static final List<Piece> PIECES =
      List.of(
          // Debian's update-alternatives links: numpy and scipy load libblas.so.3 and
          // liblapack.so.3 through /etc/alternatives ("libblas.so.3: cannot open shared object
          // file" without it). Only links, to files of installed packages.
          new Piece("alternatives", true),
          // fontconfig's configuration (links into /usr/share/fontconfig and the fonts' own
          // settings): without it matplotlib's font search prints "Fontconfig error: Cannot load
          // default config file" into every drawing program's stderr.
          new Piece("fonts", true),
          // Debian's matplotlib reads its defaults from here only ("Could not find matplotlibrc
          // file; your Matplotlib install is broken" without it).
          new Piece("matplotlibrc", false));

  /**
   * @param name the path under /etc
   * @param directory whether it must be a directory (else a regular file)
   */
  record Piece(String name, boolean directory) {}

  /** One read-only bind: the host path and where the sandbox sees it. */
  record Bind(Path source, String destination) {}

  private HostEtc() {}

  /**
   * The pieces present under {@code etc} (the host's /etc; a planted tree in tests) that can be
   * shown: a real directory or file, not a link, owned by the owner of {@code etc} itself (root on
   * a real machine), and not writable by group or others.
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
