package dev.cinchmcp.backend.cinch;

import dev.cinchmcp.backend.CappedText;

/**
 * Removes the API key from text that came back from the API (error bodies, output) before it
 * reaches a result or a log line: a misbehaving API or proxy could echo the Authorization header.
 */
final class Redactor {

  static final String MASK = "[REDACTED]";

  // A key's tail cut off by truncation still leaks its start; mask such a tail from this many
  // chars.
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
   * The same stream with the key masked, including a key's start left at the end by the cut; its
   * original length stays as the API reported it.
   */
  CappedText cappedSafe(CappedText text) {
    if (secret == null) {
      return text;
    }
    String safe = redact(text.text());
    if (text.truncated()) {
      safe = maskTail(safe);
    }
    if (safe.equals(text.text())) {
      return text;
    }
    // A whole stream keeps being whole (its length is what is shown); a cut one keeps the API's
    // length.
    return new CappedText(
        safe, text.truncated() ? Math.max(text.originalLength(), safe.length()) : safe.length());
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
