package dev.cinchmcp.testkit;

import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The encodings a hostile or careless API might echo the key in, and a check that none is left. */
public final class KeyEchoes {

  private KeyEchoes() {}

  /** The key in every encoding a server might echo it in, alone and inside other text. */
  public static java.util.List<String> of(String key) {
    java.util.Base64.Encoder b64 = java.util.Base64.getEncoder();
    java.util.Base64.Encoder url = java.util.Base64.getUrlEncoder();
    byte[] k = key.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] bearer = ("Bearer " + key).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    StringBuilder unicode = new StringBuilder();
    StringBuilder percent = new StringBuilder();
    StringBuilder entities = new StringBuilder();
    for (char c : key.toCharArray()) {
      unicode.append(String.format("\\u%04x", (int) c));
      percent.append(String.format("%%%02X", (int) c));
      entities.append("&#").append((int) c).append(';');
    }
    return java.util.List.of(
        key.replace("_", "\\u005f"),
        key.replace("_", "\\u005F").replace("c", "\\x63"),
        key.replace("c", "\\u0063"),
        unicode.toString(),
        percent.toString(),
        percent.toString().toLowerCase(java.util.Locale.ROOT),
        entities.toString(),
        key.replace("_", "%5F"),
        b64.encodeToString(k),
        url.encodeToString(k),
        b64.withoutPadding().encodeToString(k),
        b64.encodeToString(bearer),
        url.encodeToString(bearer),
        b64.encodeToString(("user:" + key).getBytes(java.nio.charset.StandardCharsets.UTF_8)),
        b64.encodeToString(("x" + key + "yz").getBytes(java.nio.charset.StandardCharsets.UTF_8)),
        "\\\\u0063" + key.substring(1), // escaped twice
        "%255F".replace("%255F", key.replace("_", "%255F")));
  }

  /**
   * Fails if a reader could find the key in the text: as it is, after undoing escapes up to four
   * times, or base64-decoding any word of it at any offset. The failure message does not show the
   * text, which would put the key in the test's output.
   */
  public static void assertNoKey(String key, String text) {
    java.util.List<String> views = new java.util.ArrayList<>();
    views.add(text);
    String view = text;
    for (int i = 0; i < 4; i++) {
      view = decodeOnce(view);
      views.add(view);
    }
    for (String v : views) {
      org.junit.jupiter.api.Assertions.assertFalse(
          v.contains(key), "the key survived, after undoing escapes (text not shown)");
      for (java.util.Base64.Decoder d :
          java.util.List.of(java.util.Base64.getDecoder(), java.util.Base64.getUrlDecoder())) {
        for (String word : v.split("[^A-Za-z0-9+/=_-]+")) {
          for (int skip = 0; skip < 4 && skip < word.length(); skip++) {
            String w = word.substring(skip).replace("=", "");
            w = w.substring(0, w.length() - w.length() % 4);
            try {
              String decoded =
                  new String(d.decode(w), java.nio.charset.StandardCharsets.ISO_8859_1);
              org.junit.jupiter.api.Assertions.assertFalse(
                  decoded.contains(key), "the key survived, base64-encoded (text not shown)");
            } catch (IllegalArgumentException notBase64) {
              // not base64 at this offset
            }
          }
        }
      }
    }
  }

  /** The escapes a server might echo the key in: JSON, \\x, percent and HTML. */
  private static final Pattern ESCAPE =
      Pattern.compile(
          "\\\\u(\\p{XDigit}{4})|\\\\x(\\p{XDigit}{2})|%(\\p{XDigit}{2})|&#[xX](\\p{XDigit}{1,6});"
              + "|&#(\\d{1,7});|\\\\(.)");

  /**
   * One layer of escapes undone, written apart from the redactor's own decoding so that the tests
   * do not check it against itself.
   */
  static String decodeOnce(String text) {
    return ESCAPE.matcher(text).replaceAll(m -> Matcher.quoteReplacement(decoded(m)));
  }

  private static String decoded(MatchResult m) {
    for (int g = 1; g <= 4; g++) {
      if (m.group(g) != null) {
        return String.valueOf((char) Integer.parseInt(m.group(g), 16));
      }
    }
    if (m.group(5) != null) {
      return String.valueOf((char) Integer.parseInt(m.group(5)));
    }
    int simple = "bfnrt".indexOf(m.group(6));
    return simple >= 0 ? String.valueOf("\b\f\n\r\t".charAt(simple)) : m.group(6);
  }
}
