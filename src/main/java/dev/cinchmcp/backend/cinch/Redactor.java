package dev.cinchmcp.backend.cinch;

import dev.cinchmcp.backend.CappedText;

/**
 * Removes the API key from text that came back from the API (error bodies, output) before it
 * reaches a result or a log line: a misbehaving API or proxy could echo the Authorization header.
 */
final class Redactor {

  static final String MASK = "[REDACTED]";

  // A key cut in two by a limit still leaks the piece that was kept; such a piece is masked from
  // this many chars.
  private static final int MIN_TAIL = 6;

  private final String secret;

  Redactor(String secret) {
    this.secret = secret == null || secret.isEmpty() ? null : secret;
  }

  String redact(String text) {
    if (secret == null || text == null || text.isEmpty()) {
      return text;
    }
    return text.contains(secret) ? text.replace(secret, MASK) : text;
  }

  /**
   * Text that may have been cut before it could be redacted (the start of a body, an excerpt): the
   * key masked, and also a key's start left at the end by the cut.
   */
  String redactCut(String text) {
    if (secret == null || text == null || text.isEmpty()) {
      return text;
    }
    return maskTail(redact(text));
  }

  /**
   * The same stream with the key masked, including a key cut in two by the cut in the middle: its
   * start at the end of the head, its end at the start of the tail. The counts stay as captured.
   */
  CappedText cappedSafe(CappedText text) {
    if (secret == null) {
      return text;
    }
    String head = redact(text.head());
    String tail = redact(text.tail());
    if (text.truncated()) {
      head = maskTail(head);
      tail = maskHead(tail);
    }
    if (head.equals(text.head()) && tail.equals(text.tail())) {
      return text;
    }
    return new CappedText(
        head,
        tail,
        text.originalLength(),
        text.omittedChars(),
        text.omittedLines(),
        text.cleaned());
  }

  /** Masks a leading piece of text that is the end of the secret (a key cut in two by a limit). */
  private String maskHead(String text) {
    int longest = Math.min(secret.length() - 1, text.length());
    for (int n = longest; n >= Math.min(MIN_TAIL, secret.length() - 1) && n > 0; n--) {
      if (text.regionMatches(0, secret, secret.length() - n, n)) {
        return MASK + text.substring(n);
      }
    }
    return text;
  }

  /**
   * Masks a trailing piece of text that is the start of the secret (a key cut in two by a limit).
   */
  private String maskTail(String text) {
    int longest = Math.min(secret.length() - 1, text.length());
    for (int n = longest; n >= Math.min(MIN_TAIL, secret.length() - 1) && n > 0; n--) {
      if (text.regionMatches(text.length() - n, secret, 0, n)) {
        return text.substring(0, text.length() - n) + MASK;
      }
    }
    return text;
  }
}
