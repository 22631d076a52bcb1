package dev.cinchmcp.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The class-data archive a jar makes for itself: one file per user, per exact JVM (vendor, version,
 * home) and per jar (path, size, time, {@link JarFingerprint}), in the user's {@link
 * TrustedDirectory}, made by an {@link ArchiveTrainer}. Java 25+: the AOT cache (JEP 483/514),
 * which on Temurin 25 started the server faster than a dynamic archive and made its first call
 * faster still. Java 17-24: a dynamic CDS archive. Java 19's {@code -XX:+AutoCreateSharedArchive}
 * is not used: it writes at the end of a real session, whose exit then waits for the dump.
 */
public final class SelfMadeArchive {

  /** Set in the training run: the server reads its input from the jar ({@link TrainingApi}). */
  public static final String TRAINING = "cinch.archive.training";

  private static final Path SHELL = Path.of("/bin/sh");

  private final TrustedDirectory dir;
  final Path jar;
  final Path file;
  private final boolean aotCache;

  private SelfMadeArchive(TrustedDirectory dir, Path jar, Path file, boolean aotCache) {
    this.dir = dir;
    this.jar = jar;
    this.file = file;
    this.aotCache = aotCache;
  }

  /** Whether Java {@code feature} makes an AOT cache (25+) rather than a dynamic CDS archive. */
  static boolean aotCache(int feature) {
    return feature >= 25;
  }

  /** The archive for this JVM and this jar; empty where no trusted cache directory exists. */
  static Optional<SelfMadeArchive> of(Path jar, Map<String, String> env) {
    Optional<TrustedDirectory> dir =
        TrustedDirectory.forUser(env, System.getProperty("os.name", ""));
    if (dir.isEmpty()) {
      return Optional.empty();
    }
    try {
      int feature = Runtime.version().feature();
      String key =
          JarFingerprint.of(
              System.getProperty("java.vm.vendor", ""),
              System.getProperty("java.vm.version", ""),
              System.getProperty("java.home", ""),
              jar.toAbsolutePath().toString(),
              Long.toString(Files.size(jar)),
              Long.toString(Files.getLastModifiedTime(jar).toMillis()),
              JarFingerprint.of(jar));
      String name = feature + "-" + key + (aotCache(feature) ? ".aot" : ".jsa");
      return Optional.of(
          new SelfMadeArchive(dir.get(), jar, dir.get().path().resolve(name), aotCache(feature)));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** Whether the archive exists and may be mapped: a regular file of this user's alone. */
  boolean ready() {
    return dir.trustsFile(file);
  }

  String useOption() {
    return (aotCache ? "-XX:AOTCache=" : "-XX:SharedArchiveFile=") + file;
  }

  String makeOption(Path output) {
    return (aotCache ? "-XX:AOTCacheOutput=" : "-XX:ArchiveClassesAtExit=") + output;
  }

  /** Records that a start maps this archive now, so it is not removed as unused. */
  static void markUsed(Path archive) {
    try {
      Files.setLastModifiedTime(archive, FileTime.from(Instant.now()));
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      // read-only cache, or a file system without times: nothing to do
    }
  }

  /**
   * Starts the trainer and returns at once; if it fails, the next start tries again. Detached by a
   * shell that backgrounds it: a child of this JVM would keep a thread waiting in a native call,
   * and a JVM stopping on a signal waits some 300 ms for such threads.
   */
  void makeInBackground() {
    List<String> command = new ArrayList<>();
    if (Files.isExecutable(SHELL)) {
      command.addAll(List.of(SHELL.toString(), "-c", "\"$@\" </dev/null >/dev/null 2>&1 &", "sh"));
    }
    command.add(javaLauncher());
    command.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx32m"));
    command.addAll(List.of("-cp", jar.toString(), ArchiveTrainer.class.getName(), jar.toString()));
    try {
      ProcessBuilder pb = new ProcessBuilder(command);
      pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
      pb.redirectError(ProcessBuilder.Redirect.DISCARD);
      pb.start().getOutputStream().close();
    } catch (IOException | RuntimeException e) {
      // No archive this time; the server runs regardless.
    }
  }

  static String javaLauncher() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
