package dev.cinchmcp.launch;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.Adler32;
import java.util.zip.CRC32;

/**
 * The class-data archive a jar makes for itself, per user, exact JVM and jar (path, size, time,
 * contents), in the user's {@link TrustedDirectory}. Java 25+: the AOT cache (JEP 483/514; on
 * Temurin 25 a faster start and first call than a dynamic archive); 17-24: a dynamic CDS archive.
 * Not {@code -XX:+AutoCreateSharedArchive}: it dumps at a real session's end, delaying its exit.
 */
record SelfMadeArchive(TrustedDirectory dir, Path jar, Path file, boolean aotCache) {

  private static final Path SHELL = Path.of("/bin/sh");

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
    try (SeekableByteChannel channel = Files.newByteChannel(jar)) {
      long size = channel.size();
      int tail = (int) Math.min(size, END_RECORD_SIZE + MAX_COMMENT);
      ByteBuffer end = read(channel, size - tail, tail);
      for (int at = tail - END_RECORD_SIZE; at >= 0; at--) {
        if (end.getInt(at) == END_RECORD) {
          long length = Integer.toUnsignedLong(end.getInt(at + 12));
          long offset = Integer.toUnsignedLong(end.getInt(at + 16));
          if (offset + length <= size && length < Integer.MAX_VALUE) {
            return read(channel, offset, (int) length).array();
          }
          break;
        }
      }
    }
    return Files.readAllBytes(jar);
  }

  private static ByteBuffer read(SeekableByteChannel channel, long from, int length)
      throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
    channel.position(from);
    while (buffer.hasRemaining()) {
      if (channel.read(buffer) < 0) {
        throw new IOException("the jar ended early");
      }
    }
    return buffer.flip();
  }
}
