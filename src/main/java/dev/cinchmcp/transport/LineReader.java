package dev.cinchmcp.transport;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits bytes into lines at '\n' (safe for UTF-8), a trailing '\r' dropped, holding at most {@code
 * maxLineBytes} of one: the rest of a longer line is thrown away and it is {@link #TOO_LONG}.
 */
final class LineReader {

  static final byte[] TOO_LONG = new byte[0];

  private final InputStream in;
  private final int maxLineBytes;
  private final byte[] chunk = new byte[64 * 1024];
  private int chunkPos;
  private int chunkEnd;
  private byte[] line = new byte[8 * 1024];
  private int lineLength;

  LineReader(InputStream in, int maxLineBytes) {
    this.in = in;
    this.maxLineBytes = maxLineBytes;
  }

  /** The next line (a copy), {@link #TOO_LONG}, or null at the end; a last unended line counts. */
  byte[] next() throws IOException {
    if (line.length > 1024 * 1024) {
      line = new byte[8 * 1024]; // give back the buffer of a huge line once it has passed
    }
    lineLength = 0;
    boolean overflow = false;
    while (true) {
      if (chunkPos == chunkEnd) {
        int n = in.read(chunk);
        if (n < 0) {
          return overflow ? TOO_LONG : lineLength == 0 ? null : finish();
        }
        chunkPos = 0;
        chunkEnd = n;
      }
      int newline = indexOf(chunk, chunkPos, chunkEnd);
      int stop = newline < 0 ? chunkEnd : newline;
      if (!overflow) {
        int count = stop - chunkPos;
        if (lineLength + count > maxLineBytes) {
          overflow = true;
          lineLength = 0;
        } else {
          append(chunk, chunkPos, count);
        }
      }
      chunkPos = newline < 0 ? chunkEnd : newline + 1;
      if (newline >= 0) {
        return overflow ? TOO_LONG : finish();
      }
    }
  }

  private byte[] finish() {
    int n = lineLength;
    if (n > 0 && line[n - 1] == '\r') {
      n--;
    }
    return Arrays.copyOf(line, n);
  }

  private void append(byte[] src, int from, int count) {
    if (lineLength + count > line.length) {
      line = Arrays.copyOf(line, Math.max(line.length * 2, lineLength + count));
    }
    System.arraycopy(src, from, line, lineLength, count);
    lineLength += count;
  }

  private static int indexOf(byte[] bytes, int from, int to) {
    for (int i = from; i < to; i++) {
      if (bytes[i] == '\n') {
        return i;
      }
    }
    return -1;
  }
}
