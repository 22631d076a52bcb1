package dev.cinchmcp.launch;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.Adler32;
import java.util.zip.CRC32;

/**
 * A 64-bit hash (CRC-32 and Adler-32 side by side) of a jar's central directory (name, size and
 * CRC-32 of every entry), or of the whole jar if its end is no plain zip. Computed at every plain
 * start: about a millisecond, where a SHA-256 of the same 200 KB took 50-80 ms in a fresh JVM. It
 * only names a cache file; the trusted directory and the JVM's own checks decide what is mapped.
 */
final class JarFingerprint {

  private static final int END_RECORD = 0x06054b50;
  private static final int END_RECORD_SIZE = 22;
  private static final int MAX_COMMENT = 0xFFFF;

  private JarFingerprint() {}

  static String of(Path jar) throws IOException {
    CRC32 crc = new CRC32();
    Adler32 adler = new Adler32();
    try (SeekableByteChannel channel = Files.newByteChannel(jar)) {
      long size = channel.size();
      int tail = (int) Math.min(size, END_RECORD_SIZE + MAX_COMMENT);
      ByteBuffer end = read(channel, size - tail, tail);
      for (int at = tail - END_RECORD_SIZE; at >= 0; at--) {
        if (end.getInt(at) == END_RECORD) {
          long directorySize = Integer.toUnsignedLong(end.getInt(at + 12));
          long directoryOffset = Integer.toUnsignedLong(end.getInt(at + 16));
          if (directoryOffset + directorySize <= size && directorySize < Integer.MAX_VALUE) {
            byte[] directory = read(channel, directoryOffset, (int) directorySize).array();
            crc.update(directory);
            adler.update(directory);
            return hex(crc, adler);
          }
          break;
        }
      }
    }
    try (InputStream in = Files.newInputStream(jar)) {
      byte[] buffer = new byte[64 * 1024];
      for (int n; (n = in.read(buffer)) > 0; ) {
        crc.update(buffer, 0, n);
        adler.update(buffer, 0, n);
      }
    }
    return hex(crc, adler);
  }

  /** The same 64-bit hash over a few strings (the parts of an archive's name). */
  static String of(String... parts) {
    CRC32 crc = new CRC32();
    Adler32 adler = new Adler32();
    for (String part : parts) {
      byte[] bytes = part.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      crc.update(bytes);
      adler.update(bytes);
      crc.update(0);
      adler.update(0);
    }
    return hex(crc, adler);
  }

  private static String hex(CRC32 crc, Adler32 adler) {
    String hex = Long.toHexString(crc.getValue() << 32 | adler.getValue());
    return "0000000000000000".substring(hex.length()) + hex; // no Formatter: slow to load
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
