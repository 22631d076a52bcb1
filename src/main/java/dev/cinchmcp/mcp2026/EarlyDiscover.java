package dev.cinchmcp.mcp2026;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Answers a {@code server/discover} (Claude Code's first message) before the server is built.
 * Hand-written: in the launcher's JVM Jackson's parser took 43-100 ms to load and read the line, a
 * mapper's readTree 280-840 ms, this under 1 ms (Java 17, 6 Dec 2026, load 8.8 on two cores). Only
 * a strict-JSON ASCII request as {@link StatelessServer} accepts it is answered, with the bytes the
 * ordinary way writes (EarlyDiscoverTest compares them); anything else (null) goes that way.
 */
public final class EarlyDiscover {

  private static final int MAX_DEPTH = 16;
  private static final int MAX_ID_DIGITS = 18; // an integer id echoed as written: inside a long
  // far inside Jackson's limits (1,000 and 50,000)
  private static final int MAX_NUMBER_CHARS = 100;
  private static final int MAX_KEY_CHARS = 1_000;

  private final Map<String, Object> result = ServerInfo.discoverResult();

  /** The reply line to a line read with its end ({@code \n}, {@code \r\n}), or null. */
  public byte[] answerLine(byte[] line) {
    if (line.length == 0 || line[line.length - 1] != '\n') {
      return null;
    }
    int end = line.length - 1;
    if (end > 0 && line[end - 1] == '\r') {
      end--;
    }
    return answer(Arrays.copyOf(line, end));
  }

  /** The whole reply line (with its newline) to {@code line}, or null when it is not answered. */
  public byte[] answer(byte[] line) {
    for (byte b : line) {
      if (b < 0) {
        return null; // not ASCII: Jackson's reading of it is the one that counts
      }
    }
    try {
      String id = new Request(new String(line, StandardCharsets.US_ASCII)).discoverId();
      StringBuilder reply = new StringBuilder(512);
      reply.append("{\"jsonrpc\":\"2.0\",\"id\":").append(id).append(",\"result\":");
      if (!write(reply, result)) {
        return null;
      }
      return reply.append("}\n").toString().getBytes(StandardCharsets.US_ASCII);
    } catch (NotAnswered e) {
      return null;
    }
  }

  /** Writes plain values as the transport's writer does; false for all but printable ASCII. */
  private static boolean write(StringBuilder out, Object value) {
    if (value instanceof String s) {
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
          return false;
        }
      }
      out.append('"').append(s).append('"');
    } else if (value instanceof Long || value instanceof Integer) {
      out.append(value);
    } else if (value instanceof Map<?, ?> map) {
      out.append('{');
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (!write(comma(out), e.getKey()) || !write(out.append(':'), e.getValue())) {
          return false;
        }
      }
      out.append('}');
    } else if (value instanceof List<?> list) {
      out.append('[');
      for (Object item : list) {
        if (!write(comma(out), item)) {
          return false;
        }
      }
      out.append(']');
    } else {
      return false;
    }
    return true;
  }

  private static StringBuilder comma(StringBuilder out) {
    char last = out.charAt(out.length() - 1);
    return last == '{' || last == '[' ? out : out.append(',');
  }

  /** Not a request answered here: thrown deep inside the reading, caught at its top. */
  private static final class NotAnswered extends Exception {
    private static final NotAnswered INSTANCE = new NotAnswered();

    private NotAnswered() {
      super(null, null, false, false);
    }
  }

  /** One line read as strict JSON, checked as a discover request; few values kept. */
  private static final class Request {
    private static final Object OTHER = new Object(); // a value not read: no id, object or string

    private final String text;
    private int pos;

    Request(String text) {
      this.text = text;
    }

    /** The id as the ordinary way echoes it (printable ASCII, or a short integer); else thrown. */
    String discoverId() throws NotAnswered {
      Map<?, ?> request = object(value(0));
      space();
      require(
          pos == text.length()
              && request.size() == 4
              && "2.0".equals(request.get("jsonrpc"))
              && ServerInfo.DISCOVER.equals(request.get("method")));
      Map<?, ?> params = object(request.get("params"));
      Map<?, ?> meta = object(params.get("_meta"));
      require(
          params.size() == 1
              && ServerInfo.SUPPORTED_VERSIONS.contains(meta.get(RequestContext.PROTOCOL_VERSION))
              && meta.get(RequestContext.CLIENT_CAPABILITIES) instanceof Map
              && !meta.containsKey(RequestContext.LOG_LEVEL)); // checked by the ordinary way
      Object id = request.get("id");
      if (id instanceof Long number) {
        return number.toString();
      }
      StringBuilder quoted = new StringBuilder();
      require(id instanceof String string && !string.isEmpty() && write(quoted, string));
      return quoted.toString();
    }

    private static Map<?, ?> object(Object value) throws NotAnswered {
      require(value instanceof Map);
      return (Map<?, ?>) value;
    }

    private Object value(int depth) throws NotAnswered {
      require(depth <= MAX_DEPTH);
      int c = peek();
      if (c == '{') {
        pos++;
        Map<String, Object> object = new HashMap<>();
        if (!empty('}')) {
          do {
            String key = key();
            require(!object.containsKey(key)); // a key written twice is not answered here
            object.put(key, value(depth + 1));
          } while (next('}'));
        }
        return object;
      }
      if (c == '[') {
        pos++;
        if (!empty(']')) {
          do {
            value(depth + 1);
          } while (next(']'));
        }
        return OTHER; // no array is read
      }
      if (c == '"') {
        return string();
      }
      if (c == '-' || (c >= '0' && c <= '9')) {
        return number();
      }
      require(word("true") || word("false") || word("null"));
      return OTHER;
    }

    private boolean empty(char close) {
      if (peek() != close) {
        return false;
      }
      pos++;
      return true;
    }

    /** A member's key, without escapes, and its ':'. */
    private String key() throws NotAnswered {
      require(peek() == '"');
      int start = pos; // at the quote: peek() skipped the white space
      String key = string();
      require(key.length() <= MAX_KEY_CHARS && text.substring(start + 1, pos - 1).equals(key));
      expect(':');
      return key;
    }

    private boolean next(char close) throws NotAnswered {
      int c = peek();
      pos++;
      if (c == ',') {
        return true;
      }
      require(c == close);
      return false;
    }

    private String string() throws NotAnswered {
      expect('"');
      StringBuilder s = new StringBuilder();
      while (true) {
        require(pos < text.length());
        char c = text.charAt(pos++);
        if (c == '"') {
          return s.toString();
        }
        require(c >= 0x20);
        if (c != '\\') {
          s.append(c);
          continue;
        }
        require(pos < text.length());
        char e = text.charAt(pos++);
        switch (e) {
          case '"', '\\', '/' -> s.append(e);
          case 'b' -> s.append('\b');
          case 'f' -> s.append('\f');
          case 'n' -> s.append('\n');
          case 'r' -> s.append('\r');
          case 't' -> s.append('\t');
          case 'u' -> {
            require(pos + 4 <= text.length());
            int code = 0;
            for (int i = 0; i < 4; i++) {
              int digit = Character.digit(text.charAt(pos++), 16);
              require(digit >= 0);
              code = code * 16 + digit;
            }
            s.append((char) code);
          }
          default -> throw NotAnswered.INSTANCE;
        }
      }
    }

    /** {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?} */
    private Object number() throws NotAnswered {
      int from = pos;
      if (text.charAt(pos) == '-') {
        pos++;
      }
      int start = pos;
      digits();
      require(pos - start == 1 || text.charAt(start) != '0');
      boolean id = from == start && pos - start <= MAX_ID_DIGITS; // an integer echoed as written
      if (pos < text.length() && text.charAt(pos) == '.') {
        pos++;
        digits();
        id = false;
      }
      if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
        pos++;
        if (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) {
          pos++;
        }
        digits();
        id = false;
      }
      require(pos - from <= MAX_NUMBER_CHARS);
      return id ? (Object) Long.valueOf(text.substring(from, pos)) : OTHER;
    }

    private void digits() throws NotAnswered {
      int start = pos;
      while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
        pos++;
      }
      require(pos > start);
    }

    private boolean word(String w) {
      if (text.startsWith(w, pos)) {
        pos += w.length();
        return true;
      }
      return false;
    }

    private void expect(char c) throws NotAnswered {
      require(peek() == c);
      pos++;
    }

    /** The next character that is not white space, not consumed; -1 at the end. */
    private int peek() {
      space();
      return pos < text.length() ? text.charAt(pos) : -1;
    }

    private void space() {
      while (pos < text.length() && " \t\r\n".indexOf(text.charAt(pos)) >= 0) {
        pos++;
      }
    }

    private static void require(boolean condition) throws NotAnswered {
      if (!condition) {
        throw NotAnswered.INSTANCE;
      }
    }
  }
}
