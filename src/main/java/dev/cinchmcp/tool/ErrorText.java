package dev.cinchmcp.tool;

import dev.cinchmcp.backend.CappedText;
import dev.cinchmcp.backend.WireCost;

/**
 * The text of a failed run, at most {@link #LIMIT} characters in all: Claude Code shows the model
 * only the text of an error, and cuts one over 11,024 characters to its two ends, which would lose
 * the stderr header and the start of stderr. The room is given by priority: the status line and the
 * summary (what happened, what to do) always; then the end of stderr, where a traceback ends; then
 * the end of stdout; then more of both ends; then the starts. Where a stream is cut further than it
 * was captured, its marker counts everything left out.
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

  static String of(String statusLine, String summary, CappedText stdout, CappedText stderr) {
    String fixed = statusLine + "\n" + summary + "\n";
    int room = LIMIT - fixed.length() - 2 * ("--- stdout ---\n".length() + PER_STREAM_ROOM);
    while (true) {
      String text = build(fixed, Math.max(room, 0), stdout, stderr);
      long cost = WireCost.of(text);
      if ((text.length() <= LIMIT && cost <= LIMIT_BYTES) || room <= 0) {
        return text;
      }
      // Costly characters (non-Latin text, emoji): give the streams less room and try again.
      room = (int) (room * Math.min(0.9, (double) LIMIT_BYTES / cost));
    }
  }

  private static String build(String fixed, int room, CappedText stdout, CappedText stderr) {
    Pick out = new Pick(stdout);
    Pick err = new Pick(stderr);
    room -= err.growEnd(Math.min(STDERR_END_FIRST, room));
    room -= out.growEnd(Math.min(STDOUT_END_FIRST, room));
    room -= err.growEnd(room);
    room -= out.growEnd(room);
    room -= err.growStart(room);
    out.growStart(room);
    return fixed + section("stdout", out) + section("stderr", err);
  }

  private static String section(String name, Pick pick) {
    StringBuilder sb = new StringBuilder("--- ").append(name).append(" ---\n");
    if (pick.stream.originalLength() == 0) {
      return sb.append("(empty)\n").toString();
    }
    String shown = pick.shown().text();
    sb.append(shown);
    if (!shown.endsWith("\n")) {
      sb.append('\n');
    }
    return sb.toString();
  }

  /** How much of one stream's shown start and end the text keeps. */
  private static final class Pick {
    final CappedText stream;
    int start;
    int end;

    Pick(CappedText stream) {
      this.stream = stream;
    }

    /** The end that can be shown: the tail of a cut stream, else the whole text. */
    private String endPart() {
      return stream.truncated() ? stream.tail() : stream.head();
    }

    int growEnd(int want) {
      int more = Math.max(0, Math.min(want, endPart().length() - end - startOverlap()));
      end += more;
      return more;
    }

    int growStart(int want) {
      int limit = stream.truncated() ? stream.head().length() : stream.head().length() - end;
      int more = Math.max(0, Math.min(want, limit - start));
      start += more;
      return more;
    }

    private int startOverlap() {
      return stream.truncated() ? 0 : start;
    }

    /** The stream as this text shows it, with a marker that counts everything left out. */
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

    /** A prefix length that does not end in half a surrogate pair. */
    private static int safeStart(String s, int n) {
      return n > 0 && n < s.length() && Character.isHighSurrogate(s.charAt(n - 1)) ? n - 1 : n;
    }

    /** Where a suffix of {@code n} characters starts, not inside a surrogate pair. */
    private static int safeEnd(String s, int n) {
      int from = s.length() - n;
      return from > 0 && from < s.length() && Character.isLowSurrogate(s.charAt(from))
          ? from + 1
          : from;
    }
  }
}
