package dev.cinchmcp.text;

/**
 * A character's bytes inside a JSON string as the transport writes it (six for controls and U+2028
 * / U+2029, sent as escapes since they break clients that split lines on them): the output cut
 * counts this too, so an answer stays near 100 KB however costly its characters.
 */
public final class WireCost {

  private WireCost() {}

  public static int of(char c) {
    if (c >= 0x20 && c < 0x7F) {
      return c == '"' || c == '\\' ? 2 : 1;
    }
    if (c == '\n' || c == '\t' || c == '\r' || c == '\b' || c == '\f') {
      return 2;
    }
    if (c < 0x20 || c == 0x7F || c == '\u2028' || c == '\u2029' || c == '\u0085') {
      return 6;
    }
    if (c < 0x800 || Character.isSurrogate(c)) {
      return 2;
    }
    return 3;
  }

  public static long of(CharSequence text) {
    return text.chars().mapToLong(c -> of((char) c)).sum();
  }
}
