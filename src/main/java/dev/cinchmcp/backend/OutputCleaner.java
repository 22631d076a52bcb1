package dev.cinchmcp.backend;

/**
 * Makes output cheap to send and safe to show: terminal escape sequences removed; other controls
 * (CR only when no newline follows) shown as their symbol ({@code ␁}), C1 controls and lone
 * surrogates as {@code �}; a run of {@value #RUN_MIN} or more of one symbol once with its count,
 * {@code [␁ ×30000]}. Each unit goes to the capture with the original characters it stands for.
 */
final class OutputCleaner {

  static final int RUN_MIN = 4;
  static final int MAX_SEQUENCE = 256;
  private static final char ESC = 0x1B;
  private static final char REPLACEMENT = '\uFFFD';

  private enum State {
    TEXT,
    ESCAPE, // ESC seen
    INTERMEDIATE, // ESC followed by 0x20-0x2F, e.g. ESC ( B
    CSI, // ESC [
    OSC, // ESC ], ended by BEL or ESC \
    OSC_ESCAPE // ESC inside an OSC
  }

  private final StreamCapture out;
  private State state = State.TEXT;
  private final StringBuilder sequence = new StringBuilder();
  private char pending; // a high surrogate before its low one, or CR before a newline
  private char runSymbol;
  private long runLength;
  private long removed; // original characters removed since the last unit, added to the next one
  private boolean changed;

  OutputCleaner(StreamCapture out) {
    this.out = out;
  }

  boolean changed() {
    return changed;
  }

  void accept(char[] buf, int off, int len) {
    int end = off + len;
    for (int i = off; i < end; ) {
      if (state == State.TEXT && pending == 0 && runLength == 0) {
        int start = i; // the common case: plain text passes straight through, in one step
        while (i < end && plain(buf[i])) {
          i++;
        }
        if (i > start) {
          out.plain(buf, start, i - start, takeRemoved());
        }
        if (i == end) {
          return;
        }
      }
      accept(buf[i++]);
    }
  }

  void accept(char c) {
    switch (state) {
      case TEXT -> text(c);
      case ESCAPE -> {
        if (c == '[' || c == ']' || (c >= 0x20 && c <= 0x2F)) {
          state = c == '[' ? State.CSI : c == ']' ? State.OSC : State.INTERMEDIATE;
          sequence.append(c);
        } else {
          end(c, c >= 0x30 && c <= 0x7E);
        }
      }
      case INTERMEDIATE, CSI -> {
        // ECMA-48: middle characters (CSI: parameters first, to 0x3F), then a final, to 0x7E
        char lastMiddle = state == State.CSI ? (char) 0x3F : (char) 0x2F;
        if (c >= 0x20 && c <= lastMiddle) {
          grow(c);
        } else {
          end(c, c > lastMiddle && c <= 0x7E);
        }
      }
      case OSC -> {
        if (c == ESC) {
          state = State.OSC_ESCAPE;
          sequence.append(c);
        } else if (c >= 0x20 && !Character.isSurrogate(c) && (c < 0x7F || c >= 0xA0)) {
          grow(c);
        } else {
          end(c, c == 0x07);
        }
      }
      case OSC_ESCAPE -> end(c, c == '\\');
    }
  }

  void finish() {
    while (state != State.TEXT) {
      abandon(); // what followed the ESC may itself end in an unfinished sequence
    }
    if (pending != 0) {
      replace(pending == '\r' ? symbol('\r') : REPLACEMENT);
      pending = 0;
    }
    flushRun();
  }

  /** Original characters removed at the very end, which no unit stands for. */
  long trailingRemoved() {
    return removed;
  }

  private void text(char c) {
    if (pending != 0) {
      char first = pending;
      pending = 0;
      if (first == '\r' ? c == '\n' : Character.isLowSurrogate(c)) {
        flushRun();
        if (first == '\r') {
          out.plain(new char[] {first, c}, 0, 2, takeRemoved());
        } else {
          out.unit(new String(new char[] {first, c}), 2 + takeRemoved());
        }
        return;
      }
      replace(first == '\r' ? symbol('\r') : REPLACEMENT);
    }
    if (plain(c)) {
      flushRun();
      out.plain(new char[] {c}, 0, 1, takeRemoved());
    } else if (c == '\r' || Character.isHighSurrogate(c)) {
      pending = c;
    } else if (c == ESC) {
      state = State.ESCAPE;
      sequence.append(c);
    } else {
      replace(c < 0x20 || c == 0x7F ? symbol(c) : REPLACEMENT);
    }
  }

  private static boolean plain(char c) {
    return (c >= 0x20 && c < 0x7F)
        || c == '\n'
        || c == '\t'
        || (c >= 0xA0 && !Character.isSurrogate(c));
  }

  /** The Control Pictures block: ␀ for NUL up to ␟ for U+001F, ␡ for DEL. */
  private static char symbol(char control) {
    return control == 0x7F ? '\u2421' : (char) (0x2400 + control);
  }

  private void replace(char shown) {
    changed = true;
    if (runLength > 0 && runSymbol != shown) {
      flushRun();
    }
    runSymbol = shown;
    runLength++;
  }

  private void flushRun() {
    if (runLength == 0) {
      return;
    }
    long n = runLength;
    runLength = 0;
    if (n >= RUN_MIN) {
      out.unit("[" + runSymbol + " \u00D7" + n + "]", n + takeRemoved());
    } else {
      out.plain(String.valueOf(runSymbol).repeat((int) n).toCharArray(), 0, (int) n, takeRemoved());
    }
  }

  private long takeRemoved() {
    long r = removed;
    removed = 0;
    return r;
  }

  private void grow(char c) {
    sequence.append(c);
    if (sequence.length() >= MAX_SEQUENCE) {
      abandon();
    }
  }

  /** Whole: dropped, counted with the next unit; else the ESC is shown, the rest read as text. */
  private void end(char c, boolean whole) {
    if (whole) {
      changed = true;
      removed += sequence.length() + 1;
      sequence.setLength(0);
      state = State.TEXT;
    } else {
      abandon();
      accept(c);
    }
  }

  private void abandon() {
    String read = sequence.toString();
    sequence.setLength(0);
    state = State.TEXT;
    replace(symbol(ESC));
    for (int i = 1; i < read.length(); i++) {
      accept(read.charAt(i));
    }
  }
}
