package dev.cinchmcp.text;

import java.util.Locale;

/**
 * One output stream as shown: kept whole when it fits {@link #LIMIT} characters and {@link
 * #LIMIT_BYTES} bytes of JSON ({@link WireCost}); else its start and its end, with a {@link
 * #marker()} counting exactly what was left out between them. The end gets more room: a result and
 * a traceback end there. Never cut inside a surrogate pair.
 *
 * @param originalLength in UTF-16 characters, as the program printed it
 * @param cleaned whether control characters or terminal codes were replaced or removed
 */
public record CappedText(
    String head,
    String tail,
    long originalLength,
    long omittedChars,
    long omittedLines,
    boolean cleaned) {

  /** How far a cut looks for a line's end, to cut there instead. */
  public static final int LINE_SNAP = 160;

  public static final int LIMIT = 20_000;
  public static final int HEAD = 7_900;
  public static final int TAIL = 12_000;

  /** Four copies (two streams, text and structuredContent) keep an answer near 100 KB. */
  public static final int LIMIT_BYTES = 24_000;

  public static final int HEAD_BYTES = 9_500;
  public static final int TAIL_BYTES = 14_400;

  public static final CappedText EMPTY = new CappedText("", "", 0, 0, 0, false);

  public CappedText {
    head = head == null ? "" : head;
    tail = tail == null ? "" : tail;
    if (omittedLines < 0
        || omittedChars < 0
        || omittedChars > originalLength
        || (omittedChars == 0 && !tail.isEmpty())) {
      throw new IllegalArgumentException(
          "omitted " + omittedChars + " of " + originalLength + ", tail " + tail.length());
    }
  }

  public boolean truncated() {
    return omittedChars > 0;
  }

  public String text() {
    return truncated() ? head + marker() + tail : head;
  }

  /** E.g. {@code [... 40,100 characters (1,002 line breaks) left out here ...]}, or empty. */
  public String marker() {
    if (!truncated()) {
      return "";
    }
    return "%s[... %s characters (%s line break%s) left out here ...]\n"
        .formatted(
            head.isEmpty() || head.endsWith("\n") ? "" : "\n",
            count(omittedChars),
            omittedLines == 0 ? "no" : count(omittedLines),
            omittedLines <= 1 ? "" : "s");
  }

  /** A count as every note writes it: 40,100. */
  public static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }
}
