package dev.cinchmcp.backend;

import dev.cinchmcp.text.CappedText;
import dev.cinchmcp.text.WireCost;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One output stream captured for a {@link CappedText}: UTF-8 decoded across reads, the launcher's
 * frame taken out ({@link FramedStdout}), the rest cleaned ({@link OutputCleaner}); its start kept
 * and its end in a ring, so at most {@link CappedText#LIMIT} characters are held. One thread feeds
 * it; bytes fed after its result are dropped.
 */
public class StreamCapture implements TextSink {

  public static CappedText of(String full) {
    if (full == null) {
      return CappedText.EMPTY;
    }
    StreamCapture capture = new StreamCapture();
    capture.append(full);
    return capture.result();
  }

  private final CharsetDecoder decoder =
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPLACE)
          .onUnmappableCharacter(CodingErrorAction.REPLACE);
  private final CharBuffer chars = CharBuffer.allocate(16 * 1024);
  private ByteBuffer pending = ByteBuffer.allocate(16 * 1024 + 8);
  private boolean finished;
  private final FramedStdout framed;

  private final OutputCleaner cleaner = new OutputCleaner(this);
  private final StringBuilder head = new StringBuilder();
  private long headCost;
  private long headRaw;

  // The end: a ring of shown characters, and for each the original characters it stands for (0
  // for the second and later characters of a unit, which the tail must not start with).
  private char[] ring;
  private long[] weights;
  private int ringStart;
  private int ringLength;

  private long rawLength;
  private long shownLength;
  private long shownCost;
  private long lineBreaks;
  private char last = '\n'; // the last character appended: a note starts on a line of its own

  public StreamCapture() {
    this(null);
  }

  /** {@code out}: the launcher's frame to take out of this stream (stdout), or null. */
  public StreamCapture(OutFrame out) {
    this.framed = out == null ? null : new FramedStdout(this, out);
  }

  public synchronized void feed(byte[] bytes, int offset, int length) {
    if (finished) {
      return;
    }
    if (pending.remaining() < length) {
      pending.flip();
      pending = ByteBuffer.allocate(pending.remaining() + length).put(pending);
    }
    pending.put(bytes, offset, length);
    decode(false);
  }

  /** Where a stream that arrives as text (inside a JSON answer) goes instead of {@link #feed}. */
  public TextSink chars() {
    return framed != null ? framed : this;
  }

  @Override
  public void append(char[] buf, int off, int len) {
    rawLength += len;
    cleaner.accept(buf, off, len);
    if (len > 0) {
      last = buf[off + len - 1];
    }
  }

  @Override
  public void append(char c) { // one JSON escape at a time: no array per character
    rawLength++;
    cleaner.accept(c);
    last = c;
  }

  public synchronized WrittenFiles files() {
    finish();
    return framed == null ? WrittenFiles.NOT_ASKED : framed.files();
  }

  public CappedText result() {
    return result(null);
  }

  /**
   * The stream so far, with the sandbox's own {@code note} line last, so always shown (null: none);
   * what is pending (an unfinished escape, half a pair) is shown as is.
   */
  public synchronized CappedText result(String note) {
    finish();
    if (note != null) {
      append((last == '\n' ? "" : "\n") + note + "\n");
    }
    cleaner.finish();
    // When everything fits, the ring never had to drop a character: the tail is all of it.
    boolean fits = shownLength <= CappedText.LIMIT && shownCost <= CappedText.LIMIT_BYTES;
    int take = fits ? ringLength : 0;
    long cost = 0;
    while (take < ringLength
        && take < CappedText.TAIL
        && (cost += WireCost.of(charFromEnd(take))) <= CappedText.TAIL_BYTES) {
      take++;
    }
    while (!fits && take > 0 && weightFromEnd(take - 1) == 0) {
      take--; // never start inside a unit: a surrogate pair or a run of symbols stays whole
    }
    take = fits ? take : startOfLine(take);
    StringBuilder tail = new StringBuilder(take);
    long tailRaw = cleaner.trailingRemoved();
    for (int i = take - 1; i >= 0; i--) {
      tail.append(charFromEnd(i));
      tailRaw += weightFromEnd(i);
    }
    if (fits) {
      return new CappedText(head + tail.toString(), "", rawLength, 0, 0, cleaner.changed());
    }
    return new CappedText(
        head.toString(),
        tail.toString(),
        rawLength,
        rawLength - headRaw - tailRaw,
        lineBreaks - count(head) - count(tail),
        cleaner.changed());
  }

  int heldCharacters() {
    return head.length() + (ring == null ? 0 : ring.length);
  }

  /** A unit of several characters (a surrogate pair, a run's count), kept or dropped whole. */
  void unit(String text, long raw) {
    long cost = WireCost.of(text);
    text.chars().forEach(c -> account((char) c));
    if (fitsHead(text.length(), cost)) {
      head.append(text);
      headCost += cost;
      headRaw += raw;
    } else {
      for (int i = 0; i < text.length(); i++) {
        push(text.charAt(i), i == 0 ? raw : 0);
      }
    }
  }

  /** One-character units, each for itself, the first for {@code extraRaw} more. */
  void plain(char[] buf, int off, int len, long extraRaw) {
    int end = off + len;
    for (int i = off; i < end; i++) {
      if (shownLength < CappedText.LIMIT) {
        account(buf[i]);
      } else { // the stream no longer fits whole, so its cost no longer matters
        shownLength++;
        lineBreaks += buf[i] == '\n' ? 1 : 0;
      }
    }
    int i = off;
    long extra = extraRaw;
    while (i < end && fitsHead(1, WireCost.of(buf[i]))) {
      head.append(buf[i]);
      headCost += WireCost.of(buf[i++]);
      headRaw += 1 + extra;
      extra = 0;
    }
    if (i == end) {
      return;
    }
    push(buf[i++], 1 + extra);
    // Only the last ring-full of the rest can stay: copy that much.
    int capacity = ring.length;
    if (end - i > capacity) {
      ringStart = 0;
      ringLength = 0;
      i = end - capacity;
    }
    while (i < end) {
      int slot = (ringStart + ringLength) % capacity;
      int n = Math.min(end - i, capacity - slot);
      System.arraycopy(buf, i, ring, slot, n);
      Arrays.fill(weights, slot, slot + n, 1L);
      ringLength += n;
      if (ringLength > capacity) { // the oldest were written over
        ringStart = (ringStart + ringLength - capacity) % capacity;
        ringLength = capacity;
      }
      i += n;
    }
  }

  private void decode(boolean end) {
    pending.flip();
    while (decoder.decode(pending, chars, end).isOverflow()) {
      flushChars();
    }
    if (end) {
      decoder.flush(chars);
    }
    flushChars();
    pending.compact();
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
      decode(true);
      if (framed != null) {
        framed.finish();
      }
    }
  }

  private void account(char c) {
    shownLength++;
    shownCost += WireCost.of(c);
    lineBreaks += c == '\n' ? 1 : 0;
  }

  /** The head ends at the first unit that does not fit (it goes to the ring): it stays a prefix. */
  private boolean fitsHead(int length, long cost) {
    return ring == null
        && head.length() + length <= CappedText.HEAD
        && headCost + cost <= CappedText.HEAD_BYTES;
  }

  private void push(char c, long raw) {
    if (ring == null) {
      // Room for everything after the head of a stream that still fits whole.
      ring = new char[CappedText.LIMIT - head.length()];
      weights = new long[ring.length];
    }
    int slot;
    if (ringLength < ring.length) {
      slot = (ringStart + ringLength++) % ring.length;
    } else {
      slot = ringStart;
      ringStart = (ringStart + 1) % ring.length;
    }
    ring[slot] = c;
    weights[slot] = raw;
  }

  /** A tail starts after a near line end: a traceback's first line is then read whole. */
  private int startOfLine(int take) {
    if (take < ringLength && charFromEnd(take) == '\n') {
      return take; // the tail already starts a line
    }
    for (int i = 0; i < Math.min(CappedText.LINE_SNAP, take); i++) {
      if (charFromEnd(take - 1 - i) == '\n') {
        return take - 1 - i;
      }
    }
    return take;
  }

  private char charFromEnd(int i) {
    return ring[(ringStart + ringLength - 1 - i) % ring.length];
  }

  private long weightFromEnd(int i) {
    return weights[(ringStart + ringLength - 1 - i) % ring.length];
  }

  private static long count(CharSequence text) {
    return text.chars().filter(ch -> ch == '\n').count();
  }
}
