package dev.cinchmcp.backend.docker;

import dev.cinchmcp.backend.OutFrame;
import dev.cinchmcp.backend.SandboxOutput;
import dev.cinchmcp.backend.StreamCapture;
import java.io.IOException;
import java.io.InputStream;

/**
 * Splits an attach stream ({@code Tty: false}) into stdout and stderr: each frame is an 8-byte
 * header {@code [stream, 0, 0, 0, length as 4 bytes big-endian]} and its payload (1 stdout, 2
 * stderr; long output comes in 16 KiB frames). Each stream is decoded as UTF-8 across frame
 * boundaries (invalid bytes become U+FFFD) into a {@link StreamCapture}, so however much a program
 * prints, the server holds only the two ends.
 *
 * <p>Runs on its own thread ({@link #drain}); the results are read once it has ended.
 */
final class OutputFrames implements SandboxOutput {

  private final StreamCapture stdout;
  private final StreamCapture stderr = new StreamCapture(null);

  OutputFrames() {
    this(null);
  }

  /** With {@code out} not null, the launcher's frame is taken out of stdout ({@link #files}). */
  OutputFrames(OutFrame out) {
    this.stdout = new StreamCapture(out);
  }

  // drainMarked only: the launcher's mark still to come as stdout's first byte; the end marks.
  private boolean awaitingMark;
  private boolean marked;
  private EndMark outEnd;
  private EndMark errEnd;

  /**
   * {@link #drain}, for a container started ahead of time: the first byte on stdout is its
   * launcher's {@link WaitingLaunchers#MARK} ("it has its program"), not output; and once the
   * program has ended, the launcher writes an end mark with its exit status as the last thing on
   * stdout and on stderr ({@code endPrefix}: the mark's start, with its token). The drain returns
   * as soon as both end marks are in (their status is then {@link #endStatus()}), without waiting
   * for the end of the stream, which the engine closes only once it has taken the container down.
   *
   * @return whether the first mark came: without it the program never started
   */
  boolean drainMarked(InputStream in, byte[] endPrefix) {
    awaitingMark = true;
    outEnd = new EndMark(endPrefix);
    errEnd = new EndMark(endPrefix);
    try {
      drain(in);
    } finally {
      outEnd.flush(stdout);
      errEnd.flush(stderr);
    }
    return marked;
  }

  /** The exit status both end marks gave, or -1 when they did not both come. */
  int endStatus() {
    return outEnd != null && outEnd.status >= 0 && errEnd.status >= 0 ? outEnd.status : -1;
  }

  /** Reads frames to the end of the stream (or until the connection is closed under it). */
  void drain(InputStream in) {
    byte[] header = new byte[8];
    byte[] payload = new byte[16 * 1024];
    try {
      while (in.readNBytes(header, 0, 8) == 8) {
        int length =
            ((header[4] & 0xff) << 24)
                | ((header[5] & 0xff) << 16)
                | ((header[6] & 0xff) << 8)
                | (header[7] & 0xff);
        StreamCapture target = header[0] == 2 ? stderr : header[0] == 1 ? stdout : null;
        int left = length;
        while (left > 0) {
          int n = in.read(payload, 0, Math.min(left, payload.length));
          if (n < 0) {
            return;
          }
          int from = 0;
          if (awaitingMark && target == stdout && n > 0) {
            awaitingMark = false;
            marked = (payload[0] & 0xff) == WaitingLaunchers.MARK;
            from = marked ? 1 : 0;
          }
          EndMark end = target == stdout ? outEnd : target == stderr ? errEnd : null;
          if (end != null) {
            end.take(payload, from, n - from, target);
            if (endStatus() >= 0) {
              return; // the program has ended, and all it wrote is in
            }
          } else if (target != null) {
            target.feed(payload, from, n - from);
          }
          left -= n;
        }
      }
    } catch (IOException e) {
      // The connection ends when the container is killed; what came so far is the output.
    }
  }

  @Override
  public StreamCapture out() {
    return stdout;
  }

  @Override
  public StreamCapture err() {
    return stderr;
  }

  /**
   * One stream's watch for the end mark ({@link WaitingLaunchers#END_MARK_LENGTH} bytes: the prefix
   * with its token, three digits, a newline), which comes as the stream's last bytes and may be
   * split across reads: a tail that could be its start is held back until more comes.
   */
  private static final class EndMark {
    private static final int LENGTH = WaitingLaunchers.END_MARK_LENGTH;
    private final byte[] prefix;
    private final byte[] held = new byte[LENGTH];
    private int heldLength;
    private volatile int status = -1;

    EndMark(byte[] prefix) {
      this.prefix = prefix;
    }

    /** Feeds {@code bytes} to {@code target}, but the end mark, and a tail that may start it. */
    void take(byte[] bytes, int offset, int length, StreamCapture target) {
      if (status >= 0) {
        return; // after the end: a straggler of a process the container's end kills
      }
      byte[] data = bytes;
      int from = offset;
      if (heldLength > 0) {
        data = new byte[heldLength + length];
        System.arraycopy(held, 0, data, 0, heldLength);
        System.arraycopy(bytes, offset, data, heldLength, length);
        from = 0;
        length = data.length;
        heldLength = 0;
      }
      int to = from + length;
      if (length >= LENGTH && matches(data, to - LENGTH, LENGTH)) {
        int at = to - 4;
        status = (data[at] - '0') * 100 + (data[at + 1] - '0') * 10 + (data[at + 2] - '0');
        target.feed(data, from, length - LENGTH);
        return;
      }
      int keep = 0;
      for (int k = Math.min(LENGTH - 1, length); k > 0 && keep == 0; k--) {
        if (matches(data, to - k, k)) {
          keep = k;
        }
      }
      target.feed(data, from, length - keep);
      System.arraycopy(data, to - keep, held, 0, keep);
      heldLength = keep;
    }

    /** At the end of the stream: what was held back was output after all. */
    void flush(StreamCapture target) {
      if (heldLength > 0 && status < 0) {
        target.feed(held, 0, heldLength);
      }
      heldLength = 0;
    }

    /** Whether {@code count} bytes at {@code at} are the first {@code count} of an end mark. */
    private boolean matches(byte[] data, int at, int count) {
      for (int i = 0; i < count; i++) {
        byte b = data[at + i];
        boolean ok =
            i < prefix.length
                ? b == prefix[i]
                : i < prefix.length + 3 ? b >= '0' && b <= '9' : b == '\n';
        if (!ok) {
          return false;
        }
      }
      return true;
    }
  }
}
