package dev.cinchmcp.launch;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The class-data archive a jar makes for itself, for the JVM that runs it: one file per user, per
 * exact JVM and per jar, in the user's {@link TrustedDirectory}.
 *
 * <p>Its name is a hash of the JVM (vendor, exact version, home) and of the jar (path, size,
 * modification time, and a {@link JarFingerprint} of its contents), so another JVM or a changed jar
 * finds no archive and makes its own; the JVM itself refuses an archive whose jar moved or changed.
 * It is made by a separate training process ({@link ArchiveTrainer}) that outlives the server if
 * need be, writes under a temporary name and renames atomically, so two first starts at once are
 * safe and nothing half-written is ever mapped. None of it touches the server's stdout.
 */
public final class SelfMadeArchive {

  /** Set in the training run: the server reads its input from the jar and writes nowhere. */
  public static final String TRAINING = "cinch.archive.training";

  private static final String TRAINING_INPUT = "training.jsonl";

  private final TrustedDirectory dir;
  private final Path jar;
  private final Path file;
  private final ArchiveKind kind;

  private SelfMadeArchive(TrustedDirectory dir, Path jar, Path file, ArchiveKind kind) {
    this.dir = dir;
    this.jar = jar;
    this.file = file;
    this.kind = kind;
  }

  /** The archive for this JVM and this jar; empty where no trusted cache directory exists. */
  public static Optional<SelfMadeArchive> of(Path jar, Map<String, String> env) {
    Optional<TrustedDirectory> dir =
        TrustedDirectory.forUser(env, System.getProperty("os.name", ""));
    if (dir.isEmpty()) {
      return Optional.empty();
    }
    try {
      ArchiveKind kind = ArchiveKind.forThisJvm();
      String name = Runtime.version().feature() + "-" + key(jar) + "." + kind.extension();
      return Optional.of(new SelfMadeArchive(dir.get(), jar, dir.get().path().resolve(name), kind));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static String key(Path jar) throws IOException {
    FileTime modified = Files.getLastModifiedTime(jar);
    return JarFingerprint.of(
        System.getProperty("java.vm.vendor", ""),
        System.getProperty("java.vm.version", ""),
        System.getProperty("java.home", ""),
        jar.toAbsolutePath().toString(),
        Long.toString(Files.size(jar)),
        Long.toString(modified.toMillis()),
        JarFingerprint.of(jar));
  }

  Path file() {
    return file;
  }

  Path jar() {
    return jar;
  }

  ArchiveKind kind() {
    return kind;
  }

  /** Whether the archive exists and may be mapped: a regular file of this user's, no one else's. */
  public boolean ready() {
    return dir.trustsFile(file);
  }

  /** The JVM options that map this archive. */
  public List<String> useOptions() {
    return List.of(kind.use(file));
  }

  /** Records that a start maps this archive now, so it is not removed as unused. */
  public void markUsed() {
    StaleArchives.markUsed(file);
  }

  /** Removes the archives of other jars and JVMs that no start has used for a month. */
  void removeOthersUnused() {
    StaleArchives.removeUnusedSince(
        dir.path(),
        file,
        java.time.Instant.now().minus(java.time.Duration.ofDays(StaleArchives.UNUSED_FOR_DAYS)));
  }

  /**
   * Starts the training process that makes the archive, and returns at once. It runs on its own
   * (its output goes nowhere near ours) and may outlive this server; if it fails, the next start
   * simply tries again.
   *
   * <p>It is started detached, through a shell that puts it in the background and exits: a child of
   * this JVM would keep a thread here waiting for it in a native call, and a JVM stopping on a
   * signal waits some 300 ms for such threads before it ends.
   */
  public void makeInBackground() {
    List<String> command = new ArrayList<>();
    if (Files.isExecutable(SHELL)) {
      command.addAll(List.of(SHELL.toString(), "-c", "\"$@\" </dev/null >/dev/null 2>&1 &", "sh"));
    }
    command.add(javaLauncher());
    // The trainer itself is small and short-lived: it waits for the training run and renames.
    command.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx32m"));
    command.addAll(List.of("-cp", jar.toString(), ArchiveTrainer.class.getName()));
    command.add(jar.toString());
    try {
      ProcessBuilder pb = new ProcessBuilder(command);
      pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
      pb.redirectError(ProcessBuilder.Redirect.DISCARD);
      pb.start().getOutputStream().close();
    } catch (IOException | RuntimeException e) {
      // No archive this time; the server runs regardless.
    }
  }

  /** The input of the training run: a short session touching what real sessions use. */
  public static InputStream trainingInput() {
    InputStream in = SelfMadeArchive.class.getResourceAsStream(TRAINING_INPUT);
    if (in == null) {
      throw new IllegalStateException(TRAINING_INPUT + " is missing from the jar");
    }
    return in;
  }

  private static final Path SHELL = Path.of("/bin/sh");

  static String javaLauncher() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** Whether this path is a regular file and not a link (the JVM wrote it where we told it). */
  static boolean isPlainFile(Path p) {
    return Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS);
  }
}
