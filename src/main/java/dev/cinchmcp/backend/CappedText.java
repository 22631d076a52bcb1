package dev.cinchmcp.backend;

/**
 * One output stream as the tool shows it: at most {@link #LIMIT} UTF-16 characters of it, and how
 * long it really was.
 *
 * @param text the kept start of the stream, never ending in half a surrogate pair
 * @param originalLength the stream's full length in UTF-16 characters
 */
public record CappedText(String text, long originalLength) {

  /** Each stream is cut at this many characters, as the Cinch service's own MCP server does. */
  public static final int LIMIT = 20_000;

  public CappedText {
    if (text == null) {
      text = "";
    }
    if (originalLength < text.length()) {
      throw new IllegalArgumentException(
          "originalLength " + originalLength + " < kept " + text.length());
    }
  }

  public static final CappedText EMPTY = new CappedText("", 0);

  /** Cuts a whole string at the limit. */
  public static CappedText of(String full) {
    if (full == null) {
      return EMPTY;
    }
    return new CappedText(full.substring(0, cutIndex(full, LIMIT)), full.length());
  }

  /**
   * Where to cut {@code text} so that at most {@code limit} characters are kept and a surrogate
   * pair is never split: one character fewer when the last kept one would be a lone high surrogate.
   */
  public static int cutIndex(CharSequence text, int limit) {
    if (text.length() <= limit) {
      return text.length();
    }
    return limit > 0 && Character.isHighSurrogate(text.charAt(limit - 1)) ? limit - 1 : limit;
  }

  public boolean truncated() {
    return originalLength > text.length();
  }

  /** How many characters were cut off the end. */
  public long cutCount() {
    return originalLength - text.length();
  }
}
