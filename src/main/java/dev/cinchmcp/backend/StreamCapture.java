package dev.cinchmcp.backend;

import dev.cinchmcp.text.CappedText;
import dev.cinchmcp.text.WireCost;
import java.util.Arrays;

/**
 * Captures one output stream for a {@link CappedText}: cleaned ({@link OutputCleaner}), its start
 * kept, its end in a ring, so no more than {@link CappedText#LIMIT} characters are held, each with
 * the original characters it stands for. Not thread-safe: one reader feeds it.
 */
public final class StreamCapture implements TextSink, OutputCleaner.Units {

  public static CappedText of(String full) {
    if (full == null) {
      return CappedText.EMPTY;
    }
    StreamCapture capture = new StreamCapture();
    capture.append(full);
    return capture.result();
  }

  private final OutputCleaner cleaner = new OutputCleaner(this);
  private final StringBuilder head = new StringBuilder();
  private long headCost;
  private long headRaw;
  private boolean headOpen = true;

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

  @Override
  public void append(char[] buf, int off, int len) {
    rawLength += len;
    cleaner.accept(buf, off, len);
    if (len > 0) {
      last = buf[off + len - 1];
    }
  }

  @Override
  public void append(char c) {
    rawLength++;
    cleaner.accept(c);
    last = c;
  }

  /** With the sandbox's own {@code note} line last, so always shown (null: none). */
  public CappedText resultWithNote(String note) {
    if (note != null) {
      append((last == '\n' ? "" : "\n") + note + "\n");
    }
    return result();
  }

  int heldCharacters() {
    return head.length() + (ring == null ? 0 : ring.length);
  }

  /** The stream so far; what is pending (an unfinished escape, half a pair) is shown as is. */
  public CappedText result() {
    cleaner.finish();
    if (shownLength <= CappedText.LIMIT && shownCost <= CappedText.LIMIT_BYTES) {
      // Everything fits: the ring never had to drop a character.
      StringBuilder all = new StringBuilder(head);
      for (int i = 0; i < ringLength; i++) {
        all.append(ring[(ringStart + i) % ring.length]);
      }
      return new CappedText(all.toString(), "", rawLength, 0, 0, cleaner.changed());
    }
    int take = 0;
    long cost = 0;
    while (take < ringLength && take < CappedText.TAIL) {
      long next = cost + WireCost.of(charFromEnd(take));
      if (next > CappedText.TAIL_BYTES) {
        break;
      }
      cost = next;
      take++;
    }
    while (take > 0 && weightFromEnd(take - 1) == 0) {
      take--; // never start inside a unit: a surrogate pair or a run of symbols stays whole
    }
    take = startOfLine(take);
    StringBuilder tail = new StringBuilder(take);
    long tailRaw = cleaner.trailingRemoved();
    for (int i = take - 1; i >= 0; i--) {
      tail.append(charFromEnd(i));
      tailRaw += weightFromEnd(i);
    }
    long omitted = rawLength - headRaw - tailRaw;
    long omittedLines = lineBreaks - count(head, '\n') - count(tail, '\n');
    return new CappedText(
        head.toString(), tail.toString(), rawLength, omitted, omittedLines, cleaner.changed());
  }

  @Override
  public void unit(char c, long raw) {
    account(c);
    if (headOpen && fitsHead(1, WireCost.of(c))) {
      head.append(c);
      headCost += WireCost.of(c);
      headRaw += raw;
    } else {
      push(c, raw);
    }
  }

  @Override
  public void unit(String text, long raw) {
    long cost = WireCost.of(text);
    for (int i = 0; i < text.length(); i++) {
      account(text.charAt(i));
    }
    if (headOpen && fitsHead(text.length(), cost)) {
      head.append(text);
      headCost += cost;
      headRaw += raw;
    } else {
      for (int i = 0; i < text.length(); i++) {
        push(text.charAt(i), i == 0 ? raw : 0);
      }
    }
  }

  @Override
  public void plain(char[] buf, int off, int len, long extraRaw) {
    int end = off + len;
    if (shownLength + len <= CappedText.LIMIT) {
      for (int i = off; i < end; i++) {
        account(buf[i]);
      }
    } else {
      // The stream no longer fits whole, so its cost no longer matters: count line breaks only.
      shownLength += len;
      for (int i = off; i < end; i++) {
        if (buf[i] == '\n') {
          lineBreaks++;
        }
      }
    }
    int i = off;
    long extra = extraRaw;
    while (headOpen && i < end && fitsHead(1, WireCost.of(buf[i]))) {
      head.append(buf[i]);
      headCost += WireCost.of(buf[i]);
      headRaw += 1 + extra;
      extra = 0;
      i++;
    }
    if (i == end) {
      return;
    }
    push(buf[i], 1 + extra);
    i++;
    // Only the last ring-full of the rest can stay: copy that much, in at most two pieces.
    int capacity = ring.length;
    int skip = Math.max(0, (end - i) - capacity);
    if (skip > 0) {
      ringStart = 0;
      ringLength = 0;
      i += skip;
    }
    while (i < end) {
      int slot = (ringStart + ringLength) % capacity;
      int n =
          ringLength < capacity
              ? Math.min(end - i, Math.min(capacity - ringLength, capacity - slot))
              : Math.min(end - i, capacity - ringStart);
      System.arraycopy(buf, i, ring, slot, n);
      Arrays.fill(weights, slot, slot + n, 1L);
      if (ringLength < capacity) {
        ringLength += n;
      } else {
        ringStart = (ringStart + n) % capacity;
      }
      i += n;
    }
  }

  private void account(char c) {
    shownLength++;
    shownCost += WireCost.of(c);
    if (c == '\n') {
      lineBreaks++;
    }
  }

  private boolean fitsHead(int length, long cost) {
    if (head.length() + length <= CappedText.HEAD && headCost + cost <= CappedText.HEAD_BYTES) {
      return true;
    }
    headOpen = false; // the head ends at the first unit that does not fit, so it stays a prefix
    return false;
  }

  private void push(char c, long raw) {
    if (ring == null) {
      // Room for everything after the head of a stream that still fits whole.
      int capacity = CappedText.LIMIT - head.length();
      ring = new char[capacity];
      weights = new long[capacity];
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

  private static long count(CharSequence text, char c) {
    return text.chars().filter(ch -> ch == c).count();
  }
}
