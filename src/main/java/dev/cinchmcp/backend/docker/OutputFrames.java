package dev.cinchmcp.backend.docker;

import dev.cinchmcp.backend.OutFrame;
import dev.cinchmcp.backend.SandboxOutput;
import dev.cinchmcp.backend.StreamCapture;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Splits an attach stream ({@code Tty: false}) into two {@link StreamCapture}s, on its own thread:
 * a frame is an 8-byte header {@code [stream, 0, 0, 0, big-endian length]} and its payload (1
 * stdout, 2 stderr; long output comes in 16 KiB frames).
 */
final class OutputFrames implements SandboxOutput {

  private final StreamCapture stdout;
  private final StreamCapture stderr = new StreamCapture(null);

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
   * {@link #drain}, for a container started ahead: stdout's first byte is the launcher's {@link
   * ContainerSpec#MARK} ("it has its program"), and the last bytes of stdout and stderr its end
   * mark ({@code endPrefix}, the exit status): the drain returns once both are in, not when the
   * engine closes the stream after taking the container down.
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
        int length = ByteBuffer.wrap(header, 4, 4).getInt();
        StreamCapture target = header[0] == 2 ? stderr : header[0] == 1 ? stdout : null;
        while (length > 0) {
          int n = in.read(payload, 0, Math.min(length, payload.length));
          if (n < 0) {
            return;
          }
          int from = 0;
          if (awaitingMark && target == stdout && n > 0) {
            awaitingMark = false;
            marked = (payload[0] & 0xff) == ContainerSpec.MARK;
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
          length -= n;
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

  /** One stream's watch for the end mark, its last bytes: those are held back until more comes. */
  private static final class EndMark {
    private static final int LENGTH = ContainerSpec.END_MARK_LENGTH;
    private final byte[] prefix;
    private final byte[] held = new byte[LENGTH];
    private int heldLength;
    private volatile int status = -1;

    EndMark(byte[] prefix) {
      this.prefix = prefix;
    }

    /** Feeds {@code bytes} to {@code target}, but the last {@link #LENGTH}: maybe the end mark. */
    void take(byte[] bytes, int offset, int length, StreamCapture target) {
      if (status >= 0) {
        return; // after the end: a straggler of a process the container's end kills
      }
      byte[] data = Arrays.copyOf(held, heldLength + length);
      System.arraycopy(bytes, offset, data, heldLength, length);
      heldLength = Math.min(LENGTH, data.length);
      target.feed(data, 0, data.length - heldLength);
      System.arraycopy(data, data.length - heldLength, held, 0, heldLength);
      if (heldLength == LENGTH
          && Arrays.equals(held, 0, prefix.length, prefix, 0, prefix.length)
          && held[LENGTH - 1] == '\n') {
        String digits = new String(held, prefix.length, 3, StandardCharsets.US_ASCII);
        status = digits.chars().allMatch(Character::isDigit) ? Integer.parseInt(digits) : -1;
      }
    }

    /** At the end of the stream: what was held back was output after all. */
    void flush(StreamCapture target) {
      if (status < 0) {
        target.feed(held, 0, heldLength);
      }
      heldLength = 0;
    }
  }
}
