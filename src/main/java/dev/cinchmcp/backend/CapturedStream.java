package dev.cinchmcp.backend;

import dev.cinchmcp.text.CappedText;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * One output stream of a local sandbox or container, fed bytes: decoded as UTF-8 across reads
 * (invalid bytes become U+FFFD), kept at its two ends ({@link StreamCapture}), the launcher's frame
 * taken out ({@link FramedStdout}). One thread feeds it; bytes fed after it is read are dropped.
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

  /** Where a stream that arrives as text (inside a JSON answer) goes instead of {@link #feed}. */
  public TextSink chars() {
    return framed != null ? framed : capture;
  }

  public synchronized CappedText result(String note) {
    finish();
    return capture.resultWithNote(note);
  }

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
      chars().append(chars.array(), chars.position(), chars.remaining());
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
