package dev.cinchmcp.backend.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The private directory of the sandbox state (runsc's root, the bundles): another user could swap a
 * spec before {@code runsc run}. Checked without following links (real, ours, mode 700), else a
 * fresh {@code mkdtemp} one. A stable path lets the next start clean what a killed server left.
 */
final class StateDirectory {

  private static final Logger log = LoggerFactory.getLogger(StateDirectory.class);

  static final String NAME = "cinchmcp-local";
  private static final FileAttribute<Set<PosixFilePermission>> PRIVATE =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));

  record Prepared(Path root, boolean fresh) {
    Path runsc() {
      return root.resolve("runsc");
    }

    Path bundles() {
      return root.resolve("bundles");
    }
  }

  private StateDirectory() {}

  static Path defaultPath(Map<String, String> environment, Path tmpDir) {
    String runtime = environment.getOrDefault("XDG_RUNTIME_DIR", "");
    if (!runtime.isEmpty() && Path.of(runtime).isAbsolute()) {
      Path base = Path.of(runtime);
      if (problem(base, false).isEmpty()) {
        return base.resolve(NAME);
      }
    }
    return tmpDir.resolve(NAME + "-" + ownUid());
  }

  static Prepared prepare(Path wanted) throws IOException {
    Optional<String> problem = makeAndCheck(wanted);
    if (problem.isEmpty()) {
      return new Prepared(wanted, false);
    }
    Path parent = wanted.toAbsolutePath().getParent();
    Path fresh = Files.createTempDirectory(parent, wanted.getFileName() + "-", PRIVATE);
    log.warn(
        "Not using the sandbox state directory: {}. Using a fresh private directory, {}, instead"
            + " (removed when the server ends; what a killed server leaves there is not cleaned).",
        problem.get(),
        fresh);
    Optional<String> again = makeAndCheck(fresh);
    if (again.isPresent()) {
      throw new IOException(again.get());
    }
    return new Prepared(fresh, true);
  }

  /** Makes what is missing of {@code dir}, runsc/ and bundles/; why it is not trusted, if so. */
  static Optional<String> makeAndCheck(Path dir) throws IOException {
    for (Path each : new Path[] {dir, dir.resolve("runsc"), dir.resolve("bundles")}) {
      try {
        Files.createDirectory(each, PRIVATE);
      } catch (FileAlreadyExistsException e) {
        // checked below, like anything found rather than made
      } catch (NoSuchFileException e) {
        return Optional.of(each + " cannot be made: its parent directory is missing");
      }
      Optional<String> problem = problem(each, true);
      if (problem.isPresent()) {
        return problem;
      }
    }
    return Optional.empty();
  }

  /** Why {@code dir} (a link not followed) is not a directory of ours only we may write/use. */
  static Optional<String> problem(Path dir, boolean privateOnly) {
    PosixFileAttributes attributes;
    int owner;
    try {
      attributes = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      owner = (Integer) Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS);
    } catch (IOException | UnsupportedOperationException e) {
      return Optional.of(dir + " cannot be inspected (" + e.getClass().getSimpleName() + ")");
    }
    if (attributes.isSymbolicLink()) {
      return Optional.of(dir + " is a symbolic link, which could lead anywhere");
    }
    if (!attributes.isDirectory()) {
      return Optional.of(dir + " is not a directory");
    }
    int uid = ownUid();
    if (owner != uid) {
      return Optional.of(dir + " belongs to uid " + owner + ", not to this server's uid " + uid);
    }
    String modeText = PosixFilePermissions.toString(attributes.permissions()); // "rwxr-x---"
    boolean shared =
        privateOnly
            ? !modeText.endsWith("------")
            : modeText.charAt(4) == 'w' || modeText.charAt(7) == 'w';
    return shared
        ? Optional.of(dir + " is open to other users (mode " + modeText + ", expected rwx------)")
        : Optional.empty();
  }

  static int ownUid() {
    try {
      return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    } catch (IOException | UnsupportedOperationException e) {
      throw new IllegalStateException("cannot tell this process's uid from /proc/self", e);
    }
  }

  // Run ids cinchmcp-<pid>-<n>: two servers sharing a state directory never delete each other's.
  static final String PREFIX = "cinchmcp-";
  private static final long OWN_PID = ProcessHandle.current().pid();
  private static final AtomicLong COUNTER = new AtomicLong();
  private static final Pattern RUN_ID = Pattern.compile(PREFIX + "(\\d{1,18})-.*");

  static String nextRunId() {
    return PREFIX + OWN_PID + "-" + COUNTER.incrementAndGet();
  }

  static boolean isLeftover(String name) {
    Matcher run = RUN_ID.matcher(name);
    if (!run.matches()) {
      return false;
    }
    long pid = Long.parseLong(run.group(1));
    return pid != OWN_PID && ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true);
  }

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
    host.cgroups().ifPresent(cgroups -> cgroups.removeLeftovers(StateDirectory::isLeftover));
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
    // Files.walk does not follow links: a link is deleted, never its target.
    try (Stream<Path> tree = Files.walk(root)) {
      for (Path path : tree.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (NoSuchFileException e) {
      // already gone
    } catch (IOException | UncheckedIOException e) {
      log.warn("Could not delete {}: {}", root, e.toString());
    }
  }
}
