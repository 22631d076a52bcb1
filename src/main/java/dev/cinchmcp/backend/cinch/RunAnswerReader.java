package dev.cinchmcp.backend.cinch;

import dev.cinchmcp.backend.OutFrame;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.StreamCapture;
import dev.cinchmcp.backend.TextSink;
import dev.cinchmcp.text.CappedText;
import java.io.IOException;
import java.io.Reader;
import java.util.Locale;

/**
 * Reads the API's answer to a run ({@code {"stdout": ..., "stderr": ..., "exitCode": 0, "timedOut":
 * false, "durationMs": 287}}) straight from the response stream, keeping the start and end of each
 * output stream ({@link StreamCapture}) however much the program printed. Unknown fields are
 * skipped, nulls and missing ones tolerated, snake_case accepted (the wire format is documented by
 * one example); an answer with none of a run's fields is not a run.
 *
 * <p>A small pull scanner of its own, not Jackson: its streaming {@code JsonParser} (2.21.1) holds
 * a string value whole, even through {@code getText(Writer)}. Measured on 7 Dec 2026 (2 cores, an
 * answer streamed into it): a 5 MB stdout took 16 MB of heap, 100 MB took 201 MB and failed with
 * OutOfMemoryError at -Xmx128m, and its default limits refuse any string over 20 M chars.
 */
final class RunAnswerReader {

  static final int EXCERPT_LIMIT = 300;

  private static final int MAX_DEPTH = 512;

  /** The answer is not a run: why, its start as received, and the API's own message or null. */
  static final class NotARun extends Exception {
    final String excerpt;
    final String apiMessage;

    NotARun(String reason, String excerpt, String apiMessage) {
      super(reason, null, false, false);
      this.excerpt = excerpt;
      this.apiMessage = apiMessage;
    }
  }

  /** The answer is not JSON of the expected shape. */
  private static final class Malformed extends Exception {
    Malformed(String message) {
      super(message, null, false, false);
    }
  }

  private final Reader in;
  private final char[] buf = new char[16 * 1024];
  private final StringBuilder excerpt = new StringBuilder(); // the first characters, for errors
  private int pos;
  private int end;

  private final OutFrame out;
  private final Redactor redactor;
  private StreamCapture stdout;
  private StreamCapture stderr;
  private Integer exitCode;
  private boolean timedOut;
  private Long durationMs;
  private String apiMessage;
  private boolean anyRunField;

  private RunAnswerReader(Reader in, OutFrame out, Redactor redactor) {
    this.in = in;
    this.out = out;
    this.redactor = redactor;
  }

  /**
   * The run, with the launcher's frame taken out of stdout before it is cut when {@code out} is not
   * null (an answer without stdout, or with a stdout the API cut inside the frame, brings no files:
   * {@link RunResult#files()} says which); the key masked in what it says.
   */
  static RunResult read(Reader body, OutFrame out, Redactor redactor) throws IOException, NotARun {
    return new RunAnswerReader(body, out, redactor).read();
  }

  private RunResult read() throws IOException, NotARun {
    try {
      expect('{');
      if (!consume('}')) {
        do {
          String name = readShortString(64).replace("_", "").toLowerCase(Locale.ROOT);
          expect(':');
          readField(name);
        } while (consume(','));
        expect('}');
      }
      if (peek() != -1) {
        throw new Malformed("more after the end of the JSON object");
      }
    } catch (Malformed e) {
      throw new NotARun(
          "the answer is not the expected JSON (" + e.getMessage() + ")", excerpt.toString(), null);
    }
    if (!anyRunField) {
      throw new NotARun(
          "the answer has none of the fields of a run", excerpt.toString(), apiMessage);
    }
    return new RunResult(
        redactor.cappedSafe(stdout == null ? CappedText.EMPTY : stdout.result(null)),
        redactor.cappedSafe(stderr == null ? CappedText.EMPTY : stderr.result(null)),
        exitCode,
        timedOut,
        durationMs,
        "cinch",
        // An answer without stdout brings no frame: MISSING when one was asked for.
        redactor.files((stdout == null ? new StreamCapture(out) : stdout).files()));
  }

  /** exitCode, exit_code and EXITCODE all name one field; a null one counts as missing. */
  private void readField(String name) throws IOException, Malformed {
    if (peek() == 'n') {
      readLiteral();
      return;
    }
    switch (name) {
      case "stdout" -> readString((stdout = new StreamCapture(out)).chars());
      case "stderr" -> readString((stderr = new StreamCapture()).chars());
      case "exitcode" -> exitCode = wholeNumber(name);
      case "timedout" -> {
        Boolean value = peek() == '"' ? null : readLiteral();
        if (value == null) {
          throw new Malformed("timedOut is not true or false");
        }
        timedOut = value;
      }
      case "durationms" -> durationMs = (long) readNumber();
      case "error", "message" -> {
        if (peek() == '"') {
          apiMessage = readShortString(EXCERPT_LIMIT);
        } else {
          skipValue(0);
        }
        return;
      }
      default -> {
        skipValue(0);
        return;
      }
    }
    anyRunField = true;
  }

  private Integer wholeNumber(String name) throws IOException, Malformed {
    int c = peek();
    if (c != '-' && (c < '0' || c > '9')) {
      throw new Malformed(name + " is not a number");
    }
    double value = readNumber();
    if (value != Math.rint(value) || Math.abs(value) > Integer.MAX_VALUE) {
      throw new Malformed(name + " is not a whole number");
    }
    return (int) value;
  }

  /** The next character that is not white space, without consuming it; -1 at the end. */
  private int peek() throws IOException {
    while (pos < end || fill()) {
      char c = buf[pos];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return c;
      }
      pos++;
    }
    return -1;
  }

  private void expect(char wanted) throws IOException, Malformed {
    int c = peek();
    if (c != wanted) {
      throw new Malformed("expected '" + wanted + "' but found " + describe(c));
    }
    pos++;
  }

  private boolean consume(char c) throws IOException {
    if (peek() == c) {
      pos++;
      return true;
    }
    return false;
  }

  /**
   * Hands each character of a string value to {@code sink} (null: skipped), which keeps what it
   * keeps.
   */
  private void readString(TextSink sink) throws IOException, Malformed {
    expect('"');
    while (true) {
      if (pos == end && !fill()) {
        throw new Malformed("the answer ended inside a string");
      }
      // A run of plain characters is handed on in one step, not one by one.
      int start = pos;
      while (pos < end && buf[pos] != '"' && buf[pos] != '\\' && buf[pos] >= 0x20) {
        pos++;
      }
      if (pos > start && sink != null) {
        sink.append(buf, start, pos - start);
      }
      if (pos == end) {
        continue;
      }
      char c = buf[pos++];
      if (c == '"') {
        return;
      }
      if (c != '\\') {
        throw new Malformed("a control character inside a string");
      }
      char escaped = readEscape();
      if (sink != null) {
        sink.append(escaped);
      }
    }
  }

  /** A string expected to be short (a key, a message); longer ones are cut at {@code keep}. */
  private String readShortString(int keep) throws IOException, Malformed {
    StringBuilder text = new StringBuilder();
    readString(
        new TextSink() {
          @Override
          public void append(char[] chars, int off, int len) {
            text.append(chars, off, Math.max(0, Math.min(keep - text.length(), len)));
          }

          @Override
          public void append(char c) {
            if (text.length() < keep) {
              text.append(c);
            }
          }
        });
    return text.toString();
  }

  private double readNumber() throws IOException, Malformed {
    StringBuilder sb = new StringBuilder();
    peek();
    while ((pos < end || fill()) && "0123456789-+.eE".indexOf(buf[pos]) >= 0) {
      if (sb.length() > 64) {
        throw new Malformed("a number too long to be real");
      }
      sb.append(buf[pos++]);
    }
    try {
      return Double.parseDouble(sb.toString());
    } catch (NumberFormatException e) {
      throw new Malformed("a malformed number");
    }
  }

  /** Boolean.TRUE, Boolean.FALSE, or null. */
  private Boolean readLiteral() throws IOException, Malformed {
    int c = peek();
    String word = c == 't' ? "true" : c == 'f' ? "false" : c == 'n' ? "null" : null;
    if (word == null) {
      throw new Malformed("expected true, false or null but found " + describe(c));
    }
    for (int i = 0; i < word.length(); i++) {
      if (pos == end && !fill() || buf[pos] != word.charAt(i)) {
        throw new Malformed("a malformed literal");
      }
      pos++;
    }
    return c == 'n' ? null : c == 't';
  }

  /** Skips one value of any kind, nested up to {@link #MAX_DEPTH}. */
  private void skipValue(int depth) throws IOException, Malformed {
    int c = peek();
    if (c == '{' || c == '[') {
      if (depth >= MAX_DEPTH) {
        throw new Malformed("nesting deeper than " + MAX_DEPTH);
      }
      pos++;
      char close = c == '{' ? '}' : ']';
      if (consume(close)) {
        return;
      }
      do {
        if (c == '{') {
          readString(null);
          expect(':');
        }
        skipValue(depth + 1);
      } while (consume(','));
      expect(close);
    } else if (c == '"') {
      readString(null);
    } else if (c == 't' || c == 'f' || c == 'n') {
      readLiteral();
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      readNumber();
    } else {
      throw new Malformed("unexpected " + describe(c));
    }
  }

  private char readEscape() throws IOException, Malformed {
    if (pos == end && !fill()) {
      throw new Malformed("the answer ended inside an escape");
    }
    char e = buf[pos++];
    int simple = "\"\\/bfnrt".indexOf(e);
    if (simple >= 0) {
      return "\"\\/\b\f\n\r\t".charAt(simple);
    }
    if (e != 'u') {
      throw new Malformed("an unknown escape \\" + e);
    }
    int value = 0;
    for (int i = 0; i < 4; i++) {
      if (pos == end && !fill()) {
        throw new Malformed("the answer ended inside an escape");
      }
      int digit = Character.digit(buf[pos++], 16);
      if (digit < 0) {
        throw new Malformed("a malformed \\u escape");
      }
      value = value * 16 + digit;
    }
    return (char) value;
  }

  private boolean fill() throws IOException {
    int n = in.read(buf, 0, buf.length);
    if (n <= 0) {
      return false;
    }
    excerpt.append(buf, 0, Math.max(0, Math.min(n, EXCERPT_LIMIT - excerpt.length())));
    pos = 0;
    end = n;
    return true;
  }

  private static String describe(int c) {
    return c == -1 ? "the end of the answer" : "'" + (char) c + "'";
  }
}
