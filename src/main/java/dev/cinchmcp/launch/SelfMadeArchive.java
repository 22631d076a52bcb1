package dev.cinchmcp.launch;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.zip.Adler32;
import java.util.zip.CRC32;

/**
 * The class-data archive a jar makes for itself, per user, exact JVM and jar, in the user's {@link
 * TrustedDirectory}: Java 25+ an AOT cache (on Temurin 25 a faster start and first call than a
 * dynamic archive), 17-24 a dynamic CDS archive (not AutoCreateSharedArchive: it delays an exit).
 * {@link #main} trains it under a lock; our archives (15-30 MB) unused for a month are removed.
 */
record SelfMadeArchive(TrustedDirectory dir, Path jar, Path file) {

  private static final Path SHELL = Path.of("/bin/sh");

  /** Longest a training run may take; it normally takes 2-5 s. */
  private static final long TRAINING_LIMIT_SECONDS = 120;

  static final int UNUSED_FOR_DAYS = 30;

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
          fingerprint(
              jar,
              System.getProperty("java.vm.vendor", ""),
              System.getProperty("java.vm.version", ""),
              System.getProperty("java.home", ""),
              jar.toAbsolutePath().toString(),
              Long.toString(Files.size(jar)),
              Long.toString(Files.getLastModifiedTime(jar).toMillis()));
      String name = feature + "-" + key + (aotCache(feature) ? ".aot" : ".jsa");
      return Optional.of(new SelfMadeArchive(dir.get(), jar, dir.get().path().resolve(name)));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** Whether the archive exists and may be mapped: a regular file of this user's alone. */
  boolean ready() {
    return dir.trustsFile(file);
  }

  String useOption() {
    return (file.toString().endsWith(".aot") ? "-XX:AOTCache=" : "-XX:SharedArchiveFile=") + file;
  }

  String makeOption(Path output) {
    return (file.toString().endsWith(".aot") ? "-XX:AOTCacheOutput=" : "-XX:ArchiveClassesAtExit=")
        + output;
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
   * Starts the trainer (a failure: the next start tries again), detached by a shell: a child would
   * keep a thread in a native call, and a JVM stopping on a signal waits ~300 ms for such threads.
   */
  void makeInBackground() {
    List<String> command = new ArrayList<>();
    if (Files.isExecutable(SHELL)) {
      command.addAll(List.of(SHELL.toString(), "-c", "\"$@\" </dev/null >/dev/null 2>&1 &", "sh"));
    }
    command.add(javaLauncher());
    command.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx32m"));
    command.addAll(List.of("-cp", jar.toString(), SelfMadeArchive.class.getName(), jar.toString()));
    try {
      ProcessBuilder pb = new ProcessBuilder(command);
      pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
      pb.redirectError(ProcessBuilder.Redirect.DISCARD);
      pb.start().getOutputStream().close();
    } catch (IOException | RuntimeException e) {
      // No archive this time; the server runs regardless.
    }
  }

  public static void main(String[] args) {
    System.exit(args.length == 1 && train(Path.of(args[0]), System.getenv()) ? 0 : 1);
  }

  static boolean train(Path jar, Map<String, String> env) {
    Optional<SelfMadeArchive> found = of(jar, env);
    if (found.isEmpty()) {
      return false;
    }
    Path file = found.get().file();
    try (FileChannel lockChannel =
            FileChannel.open(
                sibling(file, ".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = lockChannel.tryLock()) {
      if (lock == null) {
        return false; // another first start is making it right now
      }
      if (found.get().ready()) {
        return true;
      }
      Path temporary = sibling(file, "." + UUID.randomUUID() + ".tmp");
      try {
        if (!runTraining(found.get(), temporary, env)
            || !Files.isRegularFile(temporary, NOFOLLOW_LINKS)) {
          return false;
        }
        try {
          Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("r--------"));
        } catch (UnsupportedOperationException notPosix) {
          temporary.toFile().setReadOnly();
        }
        Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
        removeUnusedSince(
            file.getParent(), file, Instant.now().minus(Duration.ofDays(UNUSED_FOR_DAYS)));
        return found.get().ready();
      } finally {
        Files.deleteIfExists(temporary);
        Files.deleteIfExists(sibling(temporary, ".config"));
      }
    } catch (IOException | RuntimeException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static Path sibling(Path file, String suffix) {
    return file.resolveSibling(file.getFileName() + suffix);
  }

  private static boolean runTraining(
      SelfMadeArchive archive, Path temporary, Map<String, String> env)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(javaLauncher());
    command.addAll(LaunchOptions.fast());
    command.add(archive.makeOption(temporary));
    command.add("-D" + TrainingApi.TRAINING + "=true");
    command.addAll(List.of("-jar", archive.jar().toString()));
    ProcessBuilder pb = new ProcessBuilder(command);
    // Never the user's key. The run's calls go to its TrainingApi (else to the discard port).
    pb.environment().clear();
    pb.environment()
        .putAll(
            Map.of(
                "PATH", env.getOrDefault("PATH", ""),
                "CINCH_API_KEY", "training-key",
                "CINCH_BASE_URL", "http://127.0.0.1:9",
                "CINCH_TIMEOUT_MS", "2000",
                "CINCH_BACKEND", "cinch"));
    pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    pb.redirectError(sibling(archive.file(), ".log").toFile());
    Process training = pb.start();
    training.getOutputStream().close();
    if (!training.waitFor(TRAINING_LIMIT_SECONDS, TimeUnit.SECONDS)) {
      training.destroyForcibly();
      return false;
    }
    return training.exitValue() == 0;
  }

  /** Deletes in {@code dir} our files, but {@code keep}'s, last modified before {@code cutoff}. */
  static void removeUnusedSince(Path dir, Path keep, Instant cutoff) {
    String kept = keep.getFileName().toString();
    // An archive (17-0123456789abcdef.jsa), or its lock, log or unfinished file. Not a static
    // field: the launcher JVM, which loads this class, would compile it (regex costs a fresh JVM).
    Pattern ours =
        Pattern.compile(
            "\\d+-[0-9a-f]{16}\\.(jsa|aot)(\\.lock|\\.log|\\.[0-9a-f-]{36}\\.tmp(\\.config)?)?");
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (!name.startsWith(kept) && ours.matcher(name).matches() && unusedSince(entry, cutoff)) {
          // Its lock and log first: once an archive is seen gone, nothing of it is left.
          if (name.endsWith(".jsa") || name.endsWith(".aot")) {
            delete(sibling(entry, ".lock"));
            delete(sibling(entry, ".log"));
          }
          delete(entry);
        }
      }
    } catch (IOException e) {
      // the cache cannot be listed: nothing is removed
    }
  }

  private static boolean unusedSince(Path file, Instant cutoff) {
    try {
      BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class, NOFOLLOW_LINKS);
      return a.isRegularFile() && a.lastModifiedTime().toInstant().isBefore(cutoff);
    } catch (IOException e) {
      return false;
    }
  }

  private static void delete(Path file) {
    try {
      if (Files.isRegularFile(file, NOFOLLOW_LINKS)) {
        Files.delete(file);
      }
    } catch (IOException e) {
      // gone already, or another trainer's: try again next time
    }
  }

  static String javaLauncher() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static final int END_RECORD = 0x06054b50;
  private static final int END_RECORD_SIZE = 22;
  private static final int MAX_COMMENT = 0xFFFF;

  /**
   * A 64-bit hash (CRC-32 and Adler-32 side by side) of {@code parts} and the jar's central
   * directory (name, size and CRC-32 of every entry). At every plain start: about a millisecond,
   * where a SHA-256 of the same 200 KB took 50-80 ms in a fresh JVM. It only names the file; the
   * trusted directory and the JVM's own checks decide what is mapped.
   */
  static String fingerprint(Path jar, String... parts) throws IOException {
    CRC32 crc = new CRC32();
    Adler32 adler = new Adler32();
    for (String part : parts) {
      byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
      crc.update(bytes);
      adler.update(bytes);
      crc.update(0);
      adler.update(0);
    }
    byte[] directory = centralDirectory(jar);
    crc.update(directory);
    adler.update(directory);
    String hex = Long.toHexString(crc.getValue() << 32 | adler.getValue());
    return "0000000000000000".substring(hex.length()) + hex; // no Formatter: slow to load
  }

  /** The jar's central directory; the whole jar if its end is no plain zip (zip64, a comment). */
  private static byte[] centralDirectory(Path jar) throws IOException {
    try (RandomAccessFile file = new RandomAccessFile(jar.toFile(), "r")) {
      long size = file.length();
      int tail = (int) Math.min(size, END_RECORD_SIZE + MAX_COMMENT);
      ByteBuffer end =
          ByteBuffer.wrap(read(file, size - tail, tail)).order(ByteOrder.LITTLE_ENDIAN);
      for (int at = tail - END_RECORD_SIZE; at >= 0; at--) {
        if (end.getInt(at) == END_RECORD) {
          long length = Integer.toUnsignedLong(end.getInt(at + 12));
          long offset = Integer.toUnsignedLong(end.getInt(at + 16));
          if (offset + length <= size && length < Integer.MAX_VALUE) {
            return read(file, offset, (int) length);
          }
          break;
        }
      }
    }
    return Files.readAllBytes(jar);
  }

  private static byte[] read(RandomAccessFile file, long from, int length) throws IOException {
    byte[] bytes = new byte[length];
    file.seek(from);
    file.readFully(bytes);
    return bytes;
  }
}
