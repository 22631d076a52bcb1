package dev.cinchmcp.backend.cinch;

import java.util.Arrays;

/**
 * Text with one layer of escapes undone, each decoded character remembering the span of the
 * original text it came from. A server can echo a key JSON-escaped ({@code \/}, {@code \u0063}),
 * percent-encoded, as an HTML character reference or as a {@code \x63} escape; the key is searched
 * for in the decoded text, and what is masked is the original span.
 *
 * <p>Decoded: {@code \"}, {@code \\}, {@code \/}, {@code \b \f \n \r \t}, {@code \}{@code uXXXX},
 * {@code \xHH}, {@code %HH} below 0x80 (the key's characters are ASCII; a non-ASCII key is masked
 * by its encoded forms instead, see {@link Redactor}) and {@code &#NNN;} / {@code &#xHH;}. Not
 * Jackson's work: a JSON parser decodes only JSON, and only whole documents, and cannot say where
 * in the original text a decoded character came from.
 */
final class DecodedView {

  final String text;

  /** Where in the original text each decoded character came from: start, and end exclusive. */
  final int[] from;

  final int[] to;

  private DecodedView(String text, int[] from, int[] to) {
    this.text = text;
    this.from = from;
    this.to = to;
  }

  /** The text as it is: every character its own span. */
  static DecodedView of(String text) {
    int[] from = new int[text.length()];
    int[] to = new int[text.length()];
    for (int i = 0; i < text.length(); i++) {
      from[i] = i;
      to[i] = i + 1;
    }
    return new DecodedView(text, from, to);
  }

  /** One more layer undone; the same view when nothing in it is an escape. */
  DecodedView decodeOnce() {
    String s = text;
    StringBuilder out = new StringBuilder(s.length());
    int[] f = new int[s.length()];
    int[] t = new int[s.length()];
    boolean changed = false;
    int i = 0;
    while (i < s.length()) {
      int[] decoded = escapeAt(s, i); // {char, length} or null
      int c = decoded == null ? s.charAt(i) : decoded[0];
      int len = decoded == null ? 1 : decoded[1];
      changed |= decoded != null;
      f[out.length()] = from[i];
      t[out.length()] = to[i + len - 1];
      out.append((char) c);
      i += len;
    }
    if (!changed) {
      return this;
    }
    int n = out.length();
    return new DecodedView(out.toString(), Arrays.copyOf(f, n), Arrays.copyOf(t, n));
  }

  private static int[] escapeAt(String s, int i) {
    char c = s.charAt(i);
    if (c == '\\' && i + 1 < s.length()) {
      char e = s.charAt(i + 1);
      int simple = "\"\\/'bfnrt".indexOf(e);
      if (simple >= 0) {
        return new int[] {"\"\\/'\b\f\n\r\t".charAt(simple), 2};
      }
      int digits = e == 'u' ? 4 : e == 'x' ? 2 : 0;
      int v = digits == 0 ? -1 : hex(s, i + 2, digits);
      return v < 0 ? null : new int[] {v, 2 + digits};
    }
    if (c == '%') {
      int v = hex(s, i + 1, 2);
      return v < 0 || v >= 0x80 ? null : new int[] {v, 3};
    }
    if (c == '&' && i + 2 < s.length() && s.charAt(i + 1) == '#') {
      return characterReference(s, i);
    }
    return null;
  }

  /** {@code &#99;} or {@code &#x63;}, at most six digits, ending in ';'. */
  private static int[] characterReference(String s, int i) {
    boolean isHex = s.charAt(i + 2) == 'x' || s.charAt(i + 2) == 'X';
    int start = i + (isHex ? 3 : 2);
    int j = start;
    int value = 0;
    while (j < s.length() && j - start < 6) {
      int d = Character.digit(s.charAt(j), isHex ? 16 : 10);
      if (d < 0) {
        break;
      }
      value = value * (isHex ? 16 : 10) + d;
      j++;
    }
    if (j == start || j >= s.length() || s.charAt(j) != ';' || value > 0xFFFF) {
      return null;
    }
    return new int[] {value, j + 1 - i};
  }

  private static int hex(String s, int at, int digits) {
    if (at + digits > s.length()) {
      return -1;
    }
    int v = 0;
    for (int k = at; k < at + digits; k++) {
      int d = Character.digit(s.charAt(k), 16);
      if (d < 0) {
        return -1;
      }
      v = v * 16 + d;
    }
    return v;
  }
}
