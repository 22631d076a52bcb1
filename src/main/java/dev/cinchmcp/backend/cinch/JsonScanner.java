package dev.cinchmcp.backend.cinch;

import dev.cinchmcp.backend.TextSink;
import java.io.IOException;
import java.io.Reader;

/**
 * A small pull scanner for one JSON document read from a stream, built for one job: to read a run's
 * answer without ever holding more of a string than the caller keeps. Jackson cannot: its streaming
 * {@code JsonParser} (2.21.1) holds a string value whole, even through {@code getText(Writer)}.
 * Measured on 7 Dec 2026 (a 2-core machine, a one-off program streaming an answer into it): a 5 MB
 * stdout took 16 MB of heap, 100 MB took 201 MB and failed with OutOfMemoryError at -Xmx128m, and
 * its default limits refuse any string over 20 M chars. This one keeps the capture's start and end.
 *
 * <p>It checks the grammar as far as the reading needs and reports anything else as a {@link
 * Malformed} exception; it does not build a tree.
 */
final class JsonScanner {

  /** The answer is not JSON of the expected shape. */
  static final class Malformed extends Exception {
    Malformed(String message) {
      super(message, null, false, false);
    }
  }

  private static final int MAX_DEPTH = 512;

  /** Where the strings that are skipped go. */
  private static final Kept NOTHING = new Kept(new StringBuilder(), 0);

  private final Reader in;
  private final char[] buf = new char[16 * 1024];
  private final StringBuilder excerpt = new StringBuilder();
  private final int excerptLimit;
  private int pos;
  private int end;

  JsonScanner(Reader in, int excerptLimit) {
    this.in = in;
    this.excerptLimit = excerptLimit;
  }

  /** The first characters read, for an error message about an answer that could not be used. */
  String excerpt() {
    return excerpt.toString();
  }

  /** The next character that is not white space, without consuming it; -1 at the end. */
  int peek() throws IOException {
    while (true) {
      if (pos == end && !fill()) {
        return -1;
      }
      char c = buf[pos];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        pos++;
      } else {
        return c;
      }
    }
  }

  void expect(char wanted) throws IOException, Malformed {
    int c = peek();
    if (c != wanted) {
      throw new Malformed("expected '" + wanted + "' but found " + describe(c));
    }
    pos++;
  }

  boolean consume(char c) throws IOException {
    if (peek() == c) {
      pos++;
      return true;
    }
    return false;
  }

  /**
   * Reads a string value, handing each of its characters to {@code sink} (a capture keeps what it
   * keeps of it); returns the string's full length in UTF-16 characters.
   */
  long readString(TextSink sink) throws IOException, Malformed {
    expect('"');
    long length = 0;
    while (true) {
      if (pos == end && !fill()) {
        throw new Malformed("the answer ended inside a string");
      }
      // Fast path: a run of plain characters is handed on in one step, not one by one.
      int start = pos;
      while (pos < end) {
        char c = buf[pos];
        if (c == '"' || c == '\\' || c < 0x20) {
          break;
        }
        pos++;
      }
      int run = pos - start;
      if (run > 0) {
        sink.append(buf, start, run);
        length += run;
      }
      if (pos == end) {
        continue;
      }
      char c = buf[pos++];
      if (c == '"') {
        return length;
      }
      if (c == '\\') {
        c = readEscape();
      } else {
        throw new Malformed("a control character inside a string");
      }
      sink.append(c);
      length++;
    }
  }

  /** Reads a string that is expected to be short (a key); longer ones are cut at {@code keep}. */
  String readShortString(int keep) throws IOException, Malformed {
    Kept kept = new Kept(new StringBuilder(), keep);
    readString(kept);
    return kept.text().toString();
  }

  /** Keeps the first {@code keep} characters it is handed (none for 0). */
  private record Kept(StringBuilder text, int keep) implements TextSink {
    @Override
    public void append(char[] buf, int off, int len) {
      text.append(buf, off, Math.max(0, Math.min(keep - text.length(), len)));
    }

    @Override
    public void append(char c) {
      if (text.length() < keep) {
        text.append(c);
      }
    }
  }

  double readNumber() throws IOException, Malformed {
    StringBuilder sb = new StringBuilder();
    peek();
    while (true) {
      if (pos == end && !fill()) {
        break;
      }
      char c = buf[pos];
      if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E') {
        if (sb.length() > 64) {
          throw new Malformed("a number too long to be real");
        }
        sb.append(c);
        pos++;
      } else {
        break;
      }
    }
    try {
      return Double.parseDouble(sb.toString());
    } catch (NumberFormatException e) {
      throw new Malformed("a malformed number");
    }
  }

  /** Boolean.TRUE, Boolean.FALSE, or null. */
  Boolean readLiteral() throws IOException, Malformed {
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
    return c == 't' ? Boolean.TRUE : c == 'f' ? Boolean.FALSE : null;
  }

  /** Skips one value of any kind, nested to any depth up to a sane limit, without recursion. */
  void skipValue() throws IOException, Malformed {
    StringBuilder open = new StringBuilder(); // one entry per open container: 'o' object, 'a' array
    while (true) {
      int c = peek();
      if (c == '{' || c == '[') {
        if (open.length() >= MAX_DEPTH) {
          throw new Malformed("nesting deeper than " + MAX_DEPTH);
        }
        pos++;
        boolean object = c == '{';
        if (!consume(object ? '}' : ']')) {
          open.append(object ? 'o' : 'a');
          if (object) {
            readString(NOTHING);
            expect(':');
          }
          continue; // on to the first member's value
        }
      } else if (c == '"') {
        readString(NOTHING);
      } else if (c == 't' || c == 'f' || c == 'n') {
        readLiteral();
      } else if (c == '-' || (c >= '0' && c <= '9')) {
        readNumber();
      } else {
        throw new Malformed("unexpected " + describe(c));
      }
      // A whole value was read: close the containers that end here, or step to the next member.
      while (true) {
        if (open.length() == 0) {
          return;
        }
        boolean inObject = open.charAt(open.length() - 1) == 'o';
        int n = peek();
        if (n == ',') {
          pos++;
          if (inObject) {
            readString(NOTHING);
            expect(':');
          }
          break;
        }
        if (n == (inObject ? '}' : ']')) {
          pos++;
          open.setLength(open.length() - 1);
        } else {
          throw new Malformed("expected ',' or a closing bracket but found " + describe(n));
        }
      }
    }
  }

  private char readEscape() throws IOException, Malformed {
    if (pos == end && !fill()) {
      throw new Malformed("the answer ended inside an escape");
    }
    char e = buf[pos++];
    return switch (e) {
      case '"', '\\', '/' -> e;
      case 'b' -> '\b';
      case 'f' -> '\f';
      case 'n' -> '\n';
      case 'r' -> '\r';
      case 't' -> '\t';
      case 'u' -> {
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
        yield (char) value;
      }
      default -> throw new Malformed("an unknown escape \\" + e);
    };
  }

  private boolean fill() throws IOException {
    int n = in.read(buf, 0, buf.length);
    if (n <= 0) {
      return false;
    }
    if (excerpt.length() < excerptLimit) {
      excerpt.append(buf, 0, Math.min(n, excerptLimit - excerpt.length()));
    }
    pos = 0;
    end = n;
    return true;
  }

  private static String describe(int c) {
    return c == -1 ? "the end of the answer" : "'" + (char) c + "'";
  }
}
