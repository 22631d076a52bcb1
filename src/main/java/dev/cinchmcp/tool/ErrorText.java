package dev.cinchmcp.tool;

import static dev.cinchmcp.text.CappedText.count;

import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.text.CappedText;
import dev.cinchmcp.text.WireCost;

/**
 * The text of a failed run, at most {@link #LIMIT} characters: Claude Code shows the model only an
 * error's text, and cuts one over 11,024 characters to its two ends. Room goes first to the status
 * and summary, then the end of stderr (where a traceback ends), the end of stdout, then the starts.
 */
final class ErrorText {

  static final int LIMIT = 10_000;

  /** Bytes as JSON: with the structured content's two streams, an answer stays near 100 KB. */
  static final int LIMIT_BYTES = 24_000;

  private static final int STDERR_END_FIRST = 5_000;
  private static final int STDOUT_END_FIRST = 2_000;

  /** Room kept for each stream's marker and line ends. */
  private static final int PER_STREAM_ROOM = 110;

  private ErrorText() {}

  static String of(String statusLine, ResultView view, RunResult run) {
    // Room for the summary's longest form: the two sentences about cuts are written after picking.
    String longest =
        statusLine
            + "\n"
            + view.summary(
                run,
                cutSentence("stdout", Long.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE),
                cutSentence("stderr", Long.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE))
            + "\n";
    int room = LIMIT - longest.length() - 2 * ("--- stdout ---\n".length() + PER_STREAM_ROOM);
    while (true) {
      String text = build(statusLine, view, run, Math.max(room, 0));
      long cost = WireCost.of(text);
      if ((text.length() <= LIMIT && cost <= LIMIT_BYTES) || room <= 0) {
        return text;
      }
      // Costly characters (non-Latin text, emoji): give the streams less room and try again.
      room = (int) (room * Math.min(0.9, (double) LIMIT_BYTES / cost));
    }
  }

  private static String build(String statusLine, ResultView view, RunResult run, int room) {
    Pick out = new Pick(run.stdout());
    Pick err = new Pick(run.stderr());
    room -= err.growEnd(Math.min(STDERR_END_FIRST, room));
    room -= out.growEnd(Math.min(STDOUT_END_FIRST, room));
    room -= err.growEnd(room);
    room -= out.growEnd(room);
    room -= err.growStart(room);
    out.growStart(room);
    CappedText shownOut = out.shown();
    CappedText shownErr = err.shown();
    return statusLine
        + "\n"
        + view.summary(run, cut("stdout", shownOut), cut("stderr", shownErr))
        + "\n"
        + ResultView.section("stdout", shownOut)
        + ResultView.section("stderr", shownErr);
  }

  private static String cut(String name, CappedText shown) {
    return shown.truncated()
        ? cutSentence(name, shown.originalLength(), shown.head().length(), shown.tail().length())
        : "";
  }

  private static String cutSentence(String name, long length, int head, int tail) {
    if (head == 0 && tail == 0) {
      return name + " was " + count(length) + " characters long; none of it fits here.";
    }
    return name
        + " was "
        + count(length)
        + " characters long: "
        + (head == 0 ? "" : "its first " + count(head) + " and ")
        + (head == 0 ? "its last " : "last ")
        + count(tail)
        + " are shown here; the marker counts the rest.";
  }

  private static final class Pick {
    final CappedText stream;
    int start;
    int end;

    Pick(CappedText stream) {
      this.stream = stream;
    }

    int growEnd(int want) {
      int room = stream.truncated() ? stream.tail().length() : stream.head().length() - start;
      int more = Math.max(0, Math.min(want, room - end));
      end += more;
      return more;
    }

    int growStart(int want) {
      int limit = stream.truncated() ? stream.head().length() : stream.head().length() - end;
      int more = Math.max(0, Math.min(want, limit - start));
      start += more;
      return more;
    }

    CappedText shown() {
      String head = stream.head();
      String tail = stream.tail();
      if (stream.truncated()) {
        if (start >= head.length() && end >= tail.length()) {
          return stream;
        }
        int h = safeStart(head, start);
        int t = safeEnd(tail, end);
        return narrowed(
            head.substring(0, h), tail.substring(t), head.substring(h) + tail.substring(0, t));
      }
      if (start + end >= head.length()) {
        return stream;
      }
      int h = safeStart(head, start);
      int t = safeEnd(head, end);
      return narrowed(head.substring(0, h), head.substring(t), head.substring(h, t));
    }

    /** The dropped characters are counted as shown: exact unless codes were removed from them. */
    private CappedText narrowed(String keptHead, String keptTail, String dropped) {
      return new CappedText(
          keptHead,
          keptTail,
          stream.originalLength(),
          Math.min(stream.originalLength(), stream.omittedChars() + dropped.length()),
          stream.omittedLines() + dropped.chars().filter(c -> c == '\n').count(),
          stream.cleaned());
    }

    /** A prefix length not ending in half a surrogate pair, at a line's end when one is near. */
    private static int safeStart(String s, int n) {
      if (n <= 0 || n >= s.length()) {
        return Math.max(n, 0);
      }
      int lineEnd = s.lastIndexOf('\n', n - 1);
      if (lineEnd >= 0 && n - 1 - lineEnd < CappedText.LINE_SNAP) {
        return lineEnd + 1;
      }
      return Character.isHighSurrogate(s.charAt(n - 1)) ? n - 1 : n;
    }

    /** Where a suffix of {@code n} starts: not inside a pair, at a line's start when near. */
    private static int safeEnd(String s, int n) {
      int from = s.length() - n;
      if (from <= 0 || from >= s.length()) {
        return Math.max(from, 0);
      }
      if (s.charAt(from - 1) != '\n') {
        int lineEnd = s.indexOf('\n', from);
        if (lineEnd >= 0 && lineEnd - from < CappedText.LINE_SNAP) {
          return lineEnd + 1;
        }
      }
      return Character.isLowSurrogate(s.charAt(from)) ? from + 1 : from;
    }
  }
}
