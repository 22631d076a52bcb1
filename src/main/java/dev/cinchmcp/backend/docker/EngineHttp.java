package dev.cinchmcp.backend.docker;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The little HTTP/1.1 the Engine API needs (the JDK's {@code HttpClient} cannot reach a unix
 * socket): one request per connection (a unix socket costs microseconds to open), bodies by
 * Content-Length, chunked or until the end, and the {@code Upgrade} of attach. Every exchange but a
 * stream's body has a deadline ({@code timers} close its connection: a stuck VM).
 *
 * @param prefix put before every path ("/v1.41"), or "" for the unversioned calls
 */
record EngineHttp(EngineAddress address, String prefix, ScheduledExecutorService timers) {

  /** Bodies the client reads whole are small JSON; more means something is wrong. */
  private static final int MAX_BODY = 4 << 20;

  EngineHttp withPrefix(String value) {
    return new EngineHttp(address, value, timers);
  }

  record Response(int status, byte[] body) {
    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }

    boolean ok() {
      return status >= 200 && status < 300;
    }
  }

  /** An answer whose body is read as it comes (a pull's progress, a wait); close when done. */
  record Streaming(int status, InputStream body, EngineConnection connection)
      implements AutoCloseable {
    @Override
    public void close() {
      connection.close();
    }
  }

  Response call(String method, String path, String json, Duration limit) throws IOException {
    EngineConnection connection = EngineConnection.open(address);
    AtomicBoolean expired = new AtomicBoolean();
    ScheduledFuture<?> deadline =
        timers.schedule(
            () -> {
              expired.set(true); // before the close, so the reader's failure sees it
              connection.close();
            },
            limit.toMillis(),
            TimeUnit.MILLISECONDS);
    try {
      send(connection, method, path, json, null);
      Head head = Head.read(connection.input());
      byte[] body = readAll(head.body(connection.input()));
      return new Response(head.status(), body);
    } catch (IOException e) {
      if (expired.get()) {
        String what = "the engine did not answer %s %s within %d ms";
        throw new IOException(String.format(what, method, path, limit.toMillis()), e);
      }
      throw e;
    } finally {
      deadline.cancel(false);
      connection.close();
    }
  }

  /** Writes a bodiless request and reads nothing, for a process about to end (that closes it). */
  void sendOnly(String method, String path) throws IOException {
    send(EngineConnection.open(address), method, path, null, null);
  }

  /** Sends a request and returns as soon as the answer's head is in; the body streams. */
  Streaming stream(String method, String path, String json, Duration headLimit) throws IOException {
    EngineConnection connection = EngineConnection.open(address);
    Head head = sendWithin(connection, method, path, json, null, headLimit);
    return new Streaming(head.status(), head.body(connection.input()), connection);
  }

  /**
   * Sends the request with {@code Upgrade: tcp}; after 101 the connection carries the raw stream
   * (an attach). Any other answer is an {@link EngineError}.
   */
  EngineConnection upgrade(String path, Duration limit) throws IOException {
    EngineConnection connection = EngineConnection.open(address);
    sendWithin(connection, "POST", path, null, "tcp", limit);
    return connection;
  }

  /**
   * Sends the request and reads the answer's head (and, for an upgrade refused, its body) within
   * {@code limit}; else closes the connection and throws.
   */
  private Head sendWithin(
      EngineConnection connection,
      String method,
      String path,
      String json,
      String upgrade,
      Duration limit)
      throws IOException {
    ScheduledFuture<?> deadline =
        timers.schedule(connection::close, limit.toMillis(), TimeUnit.MILLISECONDS);
    try {
      send(connection, method, path, json, upgrade);
      Head head = Head.read(connection.input());
      if (upgrade != null && head.status() != 101 && head.status() != 200) {
        byte[] body = readAll(head.body(connection.input()));
        throw EngineError.of(
            head.status(), new String(body, StandardCharsets.UTF_8), method + " " + path);
      }
      return head;
    } catch (IOException | RuntimeException e) {
      connection.close();
      throw e;
    } finally {
      deadline.cancel(false);
    }
  }

  private void send(
      EngineConnection connection, String method, String path, String json, String upgrade)
      throws IOException {
    byte[] body = json == null ? new byte[0] : json.getBytes(StandardCharsets.UTF_8);
    StringBuilder head = new StringBuilder(256);
    head.append(method).append(' ').append(prefix).append(path).append(" HTTP/1.1\r\n");
    head.append("Host: docker\r\n");
    head.append("User-Agent: cinch-mcp\r\n");
    if (upgrade != null) {
      head.append("Connection: Upgrade\r\nUpgrade: ").append(upgrade).append("\r\n");
    } else {
      head.append("Connection: close\r\n");
    }
    if (json != null) {
      head.append("Content-Type: application/json\r\n");
    }
    if (json != null || method.equals("POST") || method.equals("PUT")) {
      head.append("Content-Length: ").append(body.length).append("\r\n");
    }
    head.append("\r\n");
    byte[] bytes = head.toString().getBytes(StandardCharsets.US_ASCII);
    connection
        .output()
        .write(ByteBuffer.allocate(bytes.length + body.length).put(bytes).put(body).array());
    connection.output().flush();
  }

  private static byte[] readAll(InputStream in) throws IOException {
    byte[] body = in.readNBytes(MAX_BODY + 1);
    if (body.length > MAX_BODY) {
      throw new IOException("the engine's answer is larger than " + MAX_BODY + " bytes");
    }
    return body;
  }

  record Head(int status, Map<String, String> headers) {

    /** Reads up to the blank line, byte by byte: nothing of the body is taken. */
    static Head read(InputStream in) throws IOException {
      String statusLine = line(in);
      if (statusLine == null || !statusLine.startsWith("HTTP/1.")) {
        throw new IOException(
            "the engine's socket did not answer in HTTP"
                + (statusLine == null
                    ? " (it closed the connection)"
                    : ": " + shorten(statusLine)));
      }
      String[] parts = statusLine.split(" ", 3);
      int status;
      try {
        status = Integer.parseInt(parts[1]);
      } catch (RuntimeException e) {
        throw new IOException("the engine sent a bad status line: " + shorten(statusLine));
      }
      Map<String, String> headers = new LinkedHashMap<>();
      String line;
      while ((line = line(in)) != null && !line.isEmpty()) {
        int colon = line.indexOf(':');
        if (colon > 0) {
          headers.put(
              line.substring(0, colon).strip().toLowerCase(Locale.ROOT),
              line.substring(colon + 1).strip());
        }
      }
      if (line == null) {
        throw new IOException("the engine closed the connection in the middle of its answer");
      }
      return new Head(status, headers);
    }

    /** The body as it is framed: chunked, by length, or up to the end (none for 101/204/304). */
    InputStream body(InputStream in) {
      if (status == 101 || status == 204 || status == 304) {
        return InputStream.nullInputStream();
      }
      if ("chunked".equalsIgnoreCase(headers.getOrDefault("transfer-encoding", ""))) {
        return new ChunkedInput(in);
      }
      String length = headers.get("content-length");
      try {
        return length == null ? in : new LimitedInput(in, Long.parseLong(length));
      } catch (NumberFormatException e) {
        return in;
      }
    }

    private static String line(InputStream in) throws IOException {
      StringBuilder line = new StringBuilder();
      int c;
      while ((c = in.read()) >= 0) {
        if (c == '\n') {
          int end = line.length();
          return end > 0 && line.charAt(end - 1) == '\r'
              ? line.substring(0, end - 1)
              : line.toString();
        }
        if (line.length() > 16_384) {
          throw new IOException("the engine sent a header line over 16 KiB");
        }
        line.append((char) c);
      }
      return line.length() == 0 ? null : line.toString();
    }

    private static String shorten(String text) {
      return text.length() > 100 ? text.substring(0, 100) + "..." : text;
    }
  }

  static final class LimitedInput extends BlockInput {
    private final InputStream in;
    private long left;

    LimitedInput(InputStream in, long length) {
      this.in = in;
      this.left = length;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (left <= 0) {
        return -1;
      }
      int n = in.read(b, off, (int) Math.min(len, left));
      if (n > 0) {
        left -= n;
      }
      return n;
    }
  }

  /** A chunked body (RFC 9112, section 7.1), trailers ignored. */
  static final class ChunkedInput extends BlockInput {
    private final InputStream in;
    private long left;
    private boolean done;

    ChunkedInput(InputStream in) {
      this.in = in;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (done) {
        return -1;
      }
      if (left == 0) {
        String size = Head.line(in);
        if (size == null) {
          done = true;
          return -1;
        }
        int semicolon = size.indexOf(';');
        String hex = (semicolon >= 0 ? size.substring(0, semicolon) : size).strip();
        try {
          left = Long.parseLong(hex, 16);
        } catch (NumberFormatException e) {
          throw new IOException("the engine sent a bad chunk size: " + Head.shorten(size));
        }
        if (left == 0) {
          done = true;
          String trailer;
          while ((trailer = Head.line(in)) != null && !trailer.isEmpty()) {
            // trailers are not used
          }
          return -1;
        }
      }
      int n = in.read(b, off, (int) Math.min(len, left));
      if (n < 0) {
        throw new IOException("the engine closed the connection in the middle of a chunk");
      }
      left -= n;
      if (left == 0) {
        Head.line(in); // the CRLF after the chunk
      }
      return n;
    }
  }
}
