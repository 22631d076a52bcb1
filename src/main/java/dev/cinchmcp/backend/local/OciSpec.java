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
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The OCI config.json of one sandbox: all the program can reach. A read-only root holding only the
 * program; read-only binds of {@link SandboxRuntimes#VISIBLE_DIRS} and {@link #ETC_PIECES} (never
 * /root, /home, the rest of /etc); a 64 MB tmpfs /tmp (the only writable place) and /proc; nobody,
 * no capabilities; an environment from scratch (never the server's, which holds the API key);
 * loopback only ({@code --network=none}).
 */
final class OciSpec {

  /** One OpenBLAS/OpenMP thread: under RLIMIT_AS numpy's threads alone exhausted 256 MB. */
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

  /** What Debian's numpy and matplotlib need of /etc; a link or a stranger's file is left out. */
  static final List<Piece> ETC_PIECES =
      List.of(
          // numpy and scipy load libblas.so.3 and liblapack.so.3 through /etc/alternatives.
          new Piece("alternatives", true),
          // without fontconfig's, "Fontconfig error: Cannot load default config file" on stderr
          new Piece("fonts", true),
          // Debian's matplotlib reads its defaults from here only.
          new Piece("matplotlibrc", false));

  record Piece(String name, boolean directory) {}

  record Bind(Path source, String destination) {}

  static List<Bind> etcBinds(Path etc) {
    List<Bind> binds = new ArrayList<>();
    try {
      UserPrincipal owner = Files.getOwner(etc, LinkOption.NOFOLLOW_LINKS);
      for (Piece piece : ETC_PIECES) {
        Path source = etc.resolve(piece.name());
        if (trusted(source, piece.directory(), owner)) {
          binds.add(new Bind(source, "/etc/" + piece.name()));
        }
      }
    } catch (IOException | UnsupportedOperationException e) {
      // no /etc: nothing shown
    }
    return List.copyOf(binds);
  }

  private static boolean trusted(Path source, boolean directory, UserPrincipal owner) {
    try {
      PosixFileAttributes attributes =
          Files.readAttributes(source, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      Set<PosixFilePermission> mode = attributes.permissions();
      return (directory ? attributes.isDirectory() : attributes.isRegularFile())
          && attributes.owner().equals(owner)
          && !mode.contains(PosixFilePermission.GROUP_WRITE)
          && !mode.contains(PosixFilePermission.OTHERS_WRITE);
    } catch (IOException | UnsupportedOperationException e) {
      return false; // missing or unreadable: not shown
    }
  }
}
