package dev.cinchmcp.text;

import java.util.Locale;

/**
 * One output stream as the tool shows it: its start and its end, with exact counts of what was left
 * out between them. A stream that fits is kept whole ({@code tail} is then empty).
 *
 * <p>A stream fits when its shown text is at most {@link #LIMIT} characters and at most {@link
 * #LIMIT_BYTES} bytes as JSON ({@link WireCost}). Otherwise the first {@link #HEAD} characters
 * ({@link #HEAD_BYTES} bytes) and the last {@link #TAIL} ({@link #TAIL_BYTES}) are kept, and the
 * {@link #marker()} between them says how much is missing; the three together stay within the
 * limits. The end gets more room than the start because that is where a program prints its result
 * and where a traceback ends. The shown text is the output cleaned by the backend's {@code
 * OutputCleaner}; it never starts or ends inside a surrogate pair.
 *
 * @param head the kept start (the whole stream when nothing was left out)
 * @param tail the kept end; empty when nothing was left out
 * @param originalLength the stream's full length in UTF-16 characters, as the program printed it
 * @param omittedChars how many of those characters are in neither head nor tail
 * @param omittedLines how many line breaks were among them
 * @param cleaned whether control characters or terminal codes were replaced or removed
 */
public record CappedText(
    String head,
    String tail,
    long originalLength,
    long omittedChars,
    long omittedLines,
    boolean cleaned) {

  /** How far into a line a cut looks for the line's end, to cut there instead. */
  public static final int LINE_SNAP = 160;

  /** At most this many characters of a stream are shown, the marker included. */
  public static final int LIMIT = 20_000;

  /** Characters kept from the start of a stream that does not fit. */
  public static final int HEAD = 7_900;

  /** Characters kept from the end of a stream that does not fit. */
  public static final int TAIL = 12_000;

  /**
   * At most this many bytes of JSON per shown stream: four copies (two streams, in the text and in
   * structuredContent) keep a whole answer near 100 KB.
   */
  public static final int LIMIT_BYTES = 24_000;

  public static final int HEAD_BYTES = 9_500;
  public static final int TAIL_BYTES = 14_400;

  /** The marker's longest form, which the limits leave room for. */
  static final int MARKER_ROOM = LIMIT - HEAD - TAIL;

  public static final CappedText EMPTY = new CappedText("", "", 0, 0, 0, false);

  public CappedText {
    head = head == null ? "" : head;
    tail = tail == null ? "" : tail;
    if (originalLength < 0 || omittedChars < 0 || omittedLines < 0) {
      throw new IllegalArgumentException("negative count");
    }
    if (omittedChars > originalLength) {
      throw new IllegalArgumentException(
          "omitted " + omittedChars + " > original " + originalLength);
    }
    if (omittedChars == 0 && !tail.isEmpty()) {
      throw new IllegalArgumentException("a tail without a cut");
    }
  }

  public boolean truncated() {
    return omittedChars > 0;
  }

  /** The stream as shown: the head, and when the middle was cut, the marker and the tail. */
  public String text() {
    return truncated() ? head + marker() + tail : head;
  }

  /**
   * The line that stands where the middle was cut, e.g. {@code [... 40,100 characters (1,002 line
   * breaks) left out here ...]}, on a line of its own; empty when nothing was cut.
   */
  public String marker() {
    if (!truncated()) {
      return "";
    }
    String lines =
        omittedLines == 0
            ? "no line break"
            : count(omittedLines) + (omittedLines == 1 ? " line break" : " line breaks");
    return (head.isEmpty() || head.endsWith("\n") ? "" : "\n")
        + "[... "
        + count(omittedChars)
        + " characters ("
        + lines
        + ") left out here ...]\n";
  }

  /** A count as every note writes it: 40,100. */
  public static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }
}
