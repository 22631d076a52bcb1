package dev.cinchmcp.backend;

import dev.cinchmcp.text.CappedText;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * One output stream of a sandbox of this machine, fed in bytes as they arrive: decoded as UTF-8
 * across reads (invalid bytes become U+FFFD, as a terminal shows them), kept at its two ends
 * ({@link StreamCapture}) so that a flood cannot fill the heap, and with the launcher's frame taken
 * out of stdout ({@link FramedStdout}). One thread feeds it; it is read once the sandbox has ended
 * (bytes fed after that are dropped).
 */
public class CapturedStream {

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

  /**
   * With {@code out} not null, the launcher's frame is taken out of the stream ({@link #files}).
   */
  public CapturedStream(OutFrame out) {
    this.framed = out == null ? null : new FramedStdout(capture, out);
  }

  public synchronized void feed(byte[] bytes, int offset, int length) {
    if (finished) {
      return;
    }
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

  /**
   * Where a stream that arrives as text (inside a JSON answer) is appended instead of {@link
   * #feed}, on the one thread that reads it.
   */
  public TextSink chars() {
    return framed != null ? framed : capture;
  }

  /**
   * The stream as shown; with {@code note} not null, a line of the sandbox's own after it (why it
   * was stopped): the last thing in the stream, so it is always shown, and it counts in the length.
   */
  public synchronized CappedText result(String note) {
    finish();
    return capture.resultWithNote(note);
  }

  /** What the launcher's frame brought; {@link WrittenFiles#NOT_ASKED} without one. */
  public synchronized WrittenFiles files() {
    finish();
    return framed == null ? WrittenFiles.NOT_ASKED : framed.files();
  }

  private void decode(boolean end) {
    while (decoder.decode(pending, chars, end).isOverflow()) {
      flushChars();
    }
    flushChars();
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

  private void finish() {
    if (!finished) {
      finished = true;
      pending.flip();
      decode(true);
      decoder.flush(chars);
      flushChars();
      if (framed != null) {
        framed.finish();
      }
    }
  }
}
