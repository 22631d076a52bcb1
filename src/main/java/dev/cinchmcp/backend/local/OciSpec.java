package dev.cinchmcp.backend.local;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.SandboxFacts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;

/**
 * The OCI config.json of one sandbox. Everything the program can see or use is named here, so this
 * is the file to read when asking "what can the code reach?":
 *
 * <ul>
 *   <li>an empty, read-only root (the bundle's own {@code rootfs}, which holds only the program);
 *   <li>read-only binds of {@link SandboxRuntimes#VISIBLE_DIRS} — never /root, /home;
 *   <li>read-only binds of the few pieces of /etc that installed packages need ({@link
 *       #ETC_PIECES}), never the rest of it;
 *   <li>a 64 MB tmpfs on /tmp (the only writable place, and the home directory), and /proc;
 *   <li>uid/gid 65534 (nobody), no new privileges, no capabilities;
 *   <li>an environment written from scratch — never the server's, which holds the API key;
 *   <li>a network namespace with loopback only ({@code --network=none} on the command line).
 * </ul>
 */
final class OciSpec {

  /**
   * Every program's whole environment (Node's adds {@link #NODE_PATH}). One OpenBLAS/OpenMP thread:
   * more compute nothing faster on half a CPU, and under RLIMIT_AS numpy's threads alone exhausted
   * 256 MB ("pthread_create() is 11").
   */
  private static final List<String> ENVIRONMENT =
      List.of(
          "PATH=/usr/local/bin:/usr/bin:/bin",
          "HOME=/tmp",
          "LANG=C.UTF-8",
          "LC_CTYPE=C.UTF-8",
          "OPENBLAS_NUM_THREADS=1",
          "OMP_NUM_THREADS=1");

  /** Where Node finds packages under /usr: a Node built upstream looks in none by itself. */
  private static final String NODE_PATH = "NODE_PATH=" + String.join(":", HostPackages.NODE_DIRS);

  private OciSpec() {}

  /**
   * @param addressSpaceLimit RLIMIT_AS in bytes, or 0 for none (Node cannot start under one)
   * @param maxProcesses RLIMIT_NPROC, which gVisor enforces itself (fork then fails with EAGAIN)
   */
  static String json(
      List<String> args,
      Language language,
      long addressSpaceLimit,
      int maxProcesses,
      Path hostEtc) {
    ObjectNode spec = JsonNodeFactory.instance.objectNode();
    spec.put("ociVersion", "1.0.0");

    ObjectNode process = spec.putObject("process");
    process.put("terminal", false);
    ObjectNode user = process.putObject("user");
    user.put("uid", 65534);
    user.put("gid", 65534);
    ArrayNode argv = process.putArray("args");
    args.forEach(argv::add);
    ArrayNode env = process.putArray("env");
    ENVIRONMENT.forEach(env::add);
    if (language == Language.JAVASCRIPT) {
      env.add(NODE_PATH);
    }
    process.put("cwd", "/tmp");
    process.put("noNewPrivileges", true);
    ObjectNode capabilities = process.putObject("capabilities");
    for (String set : List.of("bounding", "effective", "inheritable", "permitted", "ambient")) {
      capabilities.putArray(set);
    }
    ArrayNode rlimits = process.putArray("rlimits");
    rlimit(rlimits, "RLIMIT_NPROC", maxProcesses);
    rlimit(rlimits, "RLIMIT_NOFILE", 1024);
    if (addressSpaceLimit > 0) {
      rlimit(rlimits, "RLIMIT_AS", addressSpaceLimit);
    }

    ObjectNode root = spec.putObject("root");
    root.put("path", "rootfs");
    root.put("readonly", true);
    spec.put("hostname", "sandbox");

    ArrayNode mounts = spec.putArray("mounts");
    mount(mounts, "/proc", "proc", "proc", "nosuid", "noexec", "nodev");
    String size = "size=" + SandboxFacts.TMP_MEGABYTES + "m";
    mount(mounts, "/tmp", "tmpfs", "tmpfs", "nosuid", "nodev", "mode=1777", size);
    for (String dir : SandboxRuntimes.VISIBLE_DIRS) {
      if (Files.exists(Path.of(dir))) { // no /lib64 on some machines; a missing source fails
        mount(mounts, dir, "bind", dir, "rbind", "ro", "nosuid", "nodev");
      }
    }
    for (Bind bind : etcBinds(hostEtc)) { // configuration only: noexec
      String source = bind.source().toString();
      mount(mounts, bind.destination(), "bind", source, "rbind", "ro", "nosuid", "nodev", "noexec");
    }

    ObjectNode linux = spec.putObject("linux");
    ArrayNode namespaces = linux.putArray("namespaces");
    for (String type : List.of("pid", "network", "ipc", "uts", "mount")) {
      namespaces.addObject().put("type", type);
    }
    return spec.toPrettyString();
  }

  private static void rlimit(ArrayNode rlimits, String type, long value) {
    rlimits.addObject().put("type", type).put("hard", value).put("soft", value);
  }

  private static void mount(
      ArrayNode mounts, String destination, String type, String source, String... options) {
    ObjectNode mount = mounts.addObject();
    mount.put("destination", destination).put("type", type).put("source", source);
    ArrayNode opts = mount.putArray("options");
    for (String option : options) {
      opts.add(option);
    }
  }

  /**
   * The pieces of the host's /etc a sandbox sees: only what packages under /usr need (Debian's
   * python3-numpy, python3-matplotlib), nothing of the machine's identity or users. A piece that is
   * a link, or not owned by /etc's owner, is left out: a bind follows its source on the host.
   */
  static final List<Piece> ETC_PIECES =
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

  /**
   * The pieces under {@code etc} of the right kind, {@code etc}'s owner's, others may not write.
   */
  static List<Bind> etcBinds(Path etc) {
    List<Bind> binds = new ArrayList<>();
    Integer owner = owner(etc);
    if (owner == null) {
      return List.of();
    }
    for (Piece piece : ETC_PIECES) {
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
