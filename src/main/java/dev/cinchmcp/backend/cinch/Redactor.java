package dev.cinchmcp.backend.cinch;

import dev.cinchmcp.backend.WrittenFiles;
import dev.cinchmcp.text.CappedText;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * Removes the API key from text that came back from the API (error bodies, output, exception texts)
 * before it reaches a result, a log line or {@code --check}: a misbehaving API or proxy could echo
 * the Authorization header, maybe encoded. Masked: the key as it is; behind up to {@value #LAYERS}
 * layers of JSON, {@code \x}, percent and HTML escapes in any mix; base64- or base64url-encoded
 * inside any base64 text (so also {@code Bearer <key>}), found by the part of the encoding that
 * depends on the key alone, at each of the three byte alignments; a non-ASCII key's percent forms.
 * Of text that was cut, a trailing start of any of these too.
 */
public final class Redactor {

  static final String MASK = "[REDACTED]";

  /** Escape layers undone (a body can quote an escaped header inside an escaped string). */
  static final int LAYERS = 3;

  /** A piece of a key cut in two by a limit is masked from this many chars. */
  private static final int MIN_TAIL = 6;

  /** An escape cut in two at the end of cut text: it may hide the next character of the key. */
  private static final Pattern CUT_ESCAPE =
      Pattern.compile(
          "(?:\\\\(?:u[0-9A-Fa-f]{0,3}|x[0-9A-Fa-f]?)?|%[0-9A-Fa-f]?|&#[xX]?[0-9A-Fa-f]*)$");

  private static final Pattern PERCENT = Pattern.compile("%[0-9A-F]{2}");

  private final String secret;

  /** The key and its forms that cannot be decoded in place (base64 cores, percent forms). */
  private final List<String> forms;

  public Redactor(String secret) {
    this.secret = secret == null || secret.isEmpty() ? null : secret;
    this.forms = this.secret == null ? List.of() : formsOf(this.secret);
  }

  public String redact(String text) {
    return mask(text, false);
  }

  /** Text that may have been cut (a body's start, an excerpt): also a key's start at its end. */
  String redactCut(String text) {
    return mask(text, true);
  }

  /**
   * The stream with the key masked, also a key cut in two by the cut in the middle: its start at
   * the end of the head, its end at the start of the tail. The counts stay as captured.
   */
  CappedText cappedSafe(CappedText text) {
    if (secret == null) {
      return text;
    }
    String head = mask(text.head(), text.truncated());
    String tail = mask(text.tail(), false);
    if (text.truncated()) {
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

  /**
   * The files with the key masked in their names and in the small files that come back as text
   * (pictures are bytes, shown as pictures; a key drawn into one is the program's own doing).
   */
  WrittenFiles files(WrittenFiles files) {
    if (secret == null || files.files().isEmpty()) {
      return files;
    }
    List<WrittenFiles.WrittenFile> safe = new ArrayList<>();
    for (WrittenFiles.WrittenFile file : files.files()) {
      byte[] data = file.data();
      if (file.kind() == WrittenFiles.Kind.TEXT) {
        String text = new String(data, StandardCharsets.UTF_8);
        String masked = redact(text);
        data = masked.equals(text) ? data : masked.getBytes(StandardCharsets.UTF_8);
      }
      safe.add(
          new WrittenFiles.WrittenFile(
              redact(file.name()), data == null ? file.size() : data.length, file.kind(), data));
    }
    return new WrittenFiles(
        files.state(),
        safe,
        files.unlisted(),
        files.unlistedBytes(),
        files.problem() == null ? null : redact(files.problem()));
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

  private String mask(String text, boolean cut) {
    if (secret == null || text == null || text.isEmpty()) {
      return text;
    }
    boolean[] hidden = new boolean[text.length()];
    boolean any = false;
    Decoded view = Decoded.of(text);
    for (int layer = 0; layer <= LAYERS; layer++) {
      any |= markAll(view, hidden);
      if (cut) {
        any |= markCutTail(view, hidden, text.length());
      }
      Decoded next = view.decodeOnce();
      if (next == view) {
        break;
      }
      view = next;
    }
    return any ? replaceMarked(text, hidden) : text;
  }

  private boolean markAll(Decoded view, boolean[] hidden) {
    boolean any = false;
    for (String form : forms) {
      for (int at = view.text().indexOf(form); at >= 0; at = view.text().indexOf(form, at + 1)) {
        mark(view, at, at + form.length(), hidden);
        any = true;
      }
    }
    return any;
  }

  /** A trailing start of the key (or of a form) cut off by a limit, with a cut escape after it. */
  private boolean markCutTail(Decoded view, boolean[] hidden, int originalLength) {
    String s = view.text();
    var escape = CUT_ESCAPE.matcher(s);
    int end = escape.find() ? escape.start() : s.length();
    for (String form : forms) {
      int longest = Math.min(form.length() - 1, end);
      for (int n = longest; n >= Math.min(MIN_TAIL, form.length() - 1) && n > 0; n--) {
        if (s.regionMatches(end - n, form, 0, n)) {
          mark(view, end - n, end, hidden);
          int from = end == s.length() ? originalLength : view.from()[end];
          Arrays.fill(hidden, from, originalLength, true);
          return true;
        }
      }
    }
    return false;
  }

  private static void mark(Decoded view, int start, int end, boolean[] hidden) {
    Arrays.fill(hidden, view.from()[start], view.to()[end - 1], true);
  }

  private static String replaceMarked(String text, boolean[] hidden) {
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      if (!hidden[i]) {
        out.append(text.charAt(i));
      } else if (i == 0 || !hidden[i - 1]) {
        out.append(MASK);
      }
    }
    return out.toString();
  }

  private static List<String> formsOf(String secret) {
    Set<String> forms = new LinkedHashSet<>();
    forms.add(secret);
    byte[] key = secret.getBytes(StandardCharsets.UTF_8);
    for (Base64.Encoder encoder : List.of(Base64.getEncoder(), Base64.getUrlEncoder())) {
      for (int offset = 0; offset < 3; offset++) {
        forms.add(base64Core(encoder, key, offset));
      }
    }
    String percent = URLEncoder.encode(secret, StandardCharsets.UTF_8);
    if (!percent.equals(secret)) {
      forms.add(percent);
      forms.add(PERCENT.matcher(percent).replaceAll(m -> m.group().toLowerCase(Locale.ROOT)));
    }
    forms.removeIf(String::isEmpty);
    return new ArrayList<>(forms);
  }

  /**
   * The characters of the base64 of any text that holds the key at a byte offset congruent to
   * {@code offset} mod 3, which depend on the key's bytes alone.
   */
  static String base64Core(Base64.Encoder encoder, byte[] key, int offset) {
    byte[] padded = new byte[offset + key.length];
    System.arraycopy(key, 0, padded, offset, key.length);
    String encoded = encoder.withoutPadding().encodeToString(padded);
    int firstBit = 8 * offset;
    int endBit = 8 * (offset + key.length);
    int first = (firstBit + 5) / 6; // first char whose six bits all lie in the key
    int last = endBit / 6; // one past the last such char
    return first < last ? encoded.substring(first, last) : "";
  }

  /**
   * Text with one layer of escapes undone, each character knowing the span of the original text it
   * came from: the key is searched for in the decoded text, and the original span is masked. Not
   * Jackson's work: a JSON parser decodes only JSON, only whole documents, and keeps no spans.
   * Decoded: {@code \" \\ \/ \' \b \f \n \r \t}, {@code \}{@code uXXXX}, {@code \xHH}, {@code %HH}
   * below 0x80 (a non-ASCII key is masked by its encoded forms instead) and {@code &#NNN;} / {@code
   * &#xHH;}.
   */
  private record Decoded(String text, int[] from, int[] to) {

    private static final Pattern ESCAPE =
        Pattern.compile(
            "\\\\([\"\\\\/'bfnrt])|\\\\u([0-9A-Fa-f]{4})|\\\\x([0-9A-Fa-f]{2})|%([0-7][0-9A-Fa-f])"
                + "|&#[xX]([0-9A-Fa-f]{1,6});|&#([0-9]{1,6});");

    static Decoded of(String text) {
      return new Decoded(
          text,
          IntStream.range(0, text.length()).toArray(),
          IntStream.rangeClosed(1, text.length()).toArray());
    }

    /** One more layer undone; the same view when nothing in it is an escape. */
    Decoded decodeOnce() {
      StringBuilder out = new StringBuilder(text.length());
      int[] f = new int[text.length()];
      int[] t = new int[text.length()];
      Matcher m = ESCAPE.matcher(text);
      boolean changed = false;
      for (int i = 0, len; i < text.length(); i += len) {
        int c = text.charAt(i);
        len = 1;
        if ((c == '\\' || c == '%' || c == '&') && m.region(i, text.length()).lookingAt()) {
          int value = value(m);
          if (value >= 0) {
            c = value;
            len = m.end() - i;
            changed = true;
          }
        }
        f[out.length()] = from[i];
        t[out.length()] = to[i + len - 1];
        out.append((char) c);
      }
      int n = out.length();
      return changed ? new Decoded(out.toString(), Arrays.copyOf(f, n), Arrays.copyOf(t, n)) : this;
    }

    /** The character an escape stands for, or -1 past U+FFFF. */
    private static int value(Matcher m) {
      if (m.group(1) != null) {
        return "\"\\/'\b\f\n\r\t".charAt("\"\\/'bfnrt".indexOf(m.group(1)));
      }
      int value = m.group(6) != null ? Integer.parseInt(m.group(6)) : -1;
      for (int group = 2; group <= 5; group++) {
        value = m.group(group) != null ? Integer.parseInt(m.group(group), 16) : value;
      }
      return value > 0xFFFF ? -1 : value;
    }
  }
}
