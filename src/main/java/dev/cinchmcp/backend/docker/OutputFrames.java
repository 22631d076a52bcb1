package dev.cinchmcp.backend.docker;

import dev.cinchmcp.backend.CappedText;
import dev.cinchmcp.backend.CapturedStream;
import dev.cinchmcp.backend.FramedStdout;
import dev.cinchmcp.backend.OutFrame;
import dev.cinchmcp.backend.SandboxOutput;
import dev.cinchmcp.backend.StreamCapture;
import dev.cinchmcp.backend.WrittenFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

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

  private final Stream stdout;
  private final Stream stderr = new Stream(null);

  OutputFrames() {
    this(null);
  }

  /** With {@code out} not null, the launcher's frame is taken out of stdout ({@link #files}). */
  OutputFrames(OutFrame out) {
    this.stdout = new Stream(out);
  }

  /**
   * Set while the first stdout byte is still to come as a launcher's mark ({@link #drainMarked}).
   */
  private boolean awaitingMark;

  private boolean marked;

  /**
   * {@link #drain}, for a container started ahead of time: the first byte on stdout is its
   * launcher's {@link WaitingLaunchers#MARK} ("it has its program"), not output. Whether it came:
   * without it the program never started.
   */
  boolean drainMarked(InputStream in) {
    awaitingMark = true;
    drain(in);
    return marked;
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
        Stream target = header[0] == 2 ? stderr : header[0] == 1 ? stdout : null;
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
          if (target != null) {
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
  public CapturedStream out() {
    return stdout;
  }

  @Override
  public CapturedStream err() {
    return stderr;
  }

  /** One stream's decoder and capture. */
  private static final class Stream implements CapturedStream {
    private final CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPLACE)
            .onUnmappableCharacter(CodingErrorAction.REPLACE);
    private final StreamCapture capture = new StreamCapture();
    private final FramedStdout framed;
    private final CharBuffer chars = CharBuffer.allocate(16 * 1024);
    private ByteBuffer pending = ByteBuffer.allocate(16 * 1024 + 8);
    private boolean finished;

    Stream(OutFrame out) {
      this.framed = out == null ? null : new FramedStdout(capture, out);
    }

    synchronized void feed(byte[] bytes, int offset, int length) {
      if (pending.remaining() < length) {
        ByteBuffer bigger = ByteBuffer.allocate(pending.position() + length);
        pending.flip();
        bigger.put(pending);
        pending = bigger;
      }
      pending.put(bytes, offset, length);
      pending.flip();
      decode(false);
      pending.compact();
    }

    private void decode(boolean end) {
      while (true) {
        var outcome = decoder.decode(pending, chars, end);
        flushChars();
        if (!outcome.isOverflow()) {
          return;
        }
      }
    }

    private void flushChars() {
      chars.flip();
      if (chars.hasRemaining()) {
        if (framed != null) {
          framed.append(chars.array(), chars.position(), chars.remaining());
        } else {
          capture.append(chars.array(), chars.position(), chars.remaining());
        }
      }
      chars.clear();
    }

    @Override
    public synchronized CappedText result(String note) {
      finish();
      return capture.resultWithNote(note);
    }

    @Override
    public synchronized WrittenFiles files() {
      if (framed == null) {
        return WrittenFiles.NOT_ASKED;
      }
      finish();
      return framed.files();
    }

    private void finish() {
      if (!finished) {
        finished = true;
        pending.flip();
        decode(true);
        decoder.flush(chars);
        flushChars();
        pending.clear();
        if (framed != null) {
          framed.finish();
        }
      }
    }
  }
}
