package dev.cinchmcp.text;

/**
 * What a character costs on the wire, in bytes, inside a JSON string written as UTF-8 the way the
 * transport writes it: one byte for printable ASCII, two for the short escapes ({@code \n}, {@code
 * \t}, {@code \"}, {@code \\}) and two-byte UTF-8, three for the rest of the plane, two for each
 * half of a surrogate pair (four bytes for the pair), and six for the characters sent as {@code
 * \\uXXXX}: the remaining controls and U+2028 / U+2029, which break clients that split lines on
 * them. The output cut counts this as well as characters, so that an answer stays near 100 KB
 * however costly each character of the output is.
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
    long cost = 0;
    for (int i = 0; i < text.length(); i++) {
      cost += of(text.charAt(i));
    }
    return cost;
  }
}
