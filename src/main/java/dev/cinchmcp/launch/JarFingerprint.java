package dev.cinchmcp.launch;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The SHA-256 of a jar's central directory: the name, size and CRC-32 of every entry, so any change
 * to any class or resource changes it. It stands for the jar's hash at every start because it costs
 * a few milliseconds, where hashing all 5 MB costs 100-160 ms in a JVM that has just started.
 * Should the jar's end not parse as a plain zip (a zip64 jar, a jar with a long comment), the whole
 * file is hashed instead.
 */
final class JarFingerprint {

  private static final int END_RECORD = 0x06054b50;
  private static final int END_RECORD_SIZE = 22;
  private static final int MAX_COMMENT = 0xFFFF;

  private JarFingerprint() {}

  static String of(Path jar) throws IOException {
    MessageDigest sha256 = sha256();
    try (SeekableByteChannel channel = Files.newByteChannel(jar)) {
      long size = channel.size();
      int tail = (int) Math.min(size, END_RECORD_SIZE + MAX_COMMENT);
      ByteBuffer end = read(channel, size - tail, tail);
      for (int at = tail - END_RECORD_SIZE; at >= 0; at--) {
        if (end.getInt(at) == END_RECORD) {
          long directorySize = Integer.toUnsignedLong(end.getInt(at + 12));
          long directoryOffset = Integer.toUnsignedLong(end.getInt(at + 16));
          if (directoryOffset + directorySize <= size && directorySize < Integer.MAX_VALUE) {
            sha256.update(read(channel, directoryOffset, (int) directorySize));
            return HexFormat.of().formatHex(sha256.digest());
          }
          break;
        }
      }
    }
    try (InputStream in = Files.newInputStream(jar)) {
      byte[] buffer = new byte[64 * 1024];
      for (int n; (n = in.read(buffer)) > 0; ) {
        sha256.update(buffer, 0, n);
      }
    }
    return HexFormat.of().formatHex(sha256.digest());
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

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
