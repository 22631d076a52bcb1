package dev.cinchmcp.backend.docker;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
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
 * socket): one request per connection (a unix socket costs microseconds to open), and the {@code
 * Upgrade} of attach. Every exchange but a stream's body has a deadline (a stuck VM).
 *
 * @param prefix put before every path ("/v1.41"), or "" for the unversioned calls
 */
record EngineHttp(EngineAddress address, String prefix, ScheduledExecutorService timers) {

  /** Bodies the client reads whole are small JSON; more means something is wrong. */
  private static final int MAX_BODY = 4 << 20;

  record Response(int status, byte[] body) {
    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }

    boolean ok() {
      return status >= 200 && status < 300;
    }
  }

  Response call(String method, String path, String json, Duration limit) throws IOException {
    try (Connection connection = Connection.open(address)) {
      Step<Response> exchange =
          () -> {
            Head head = send(connection, method, path, json, false);
            return new Response(head.status(), readAll(head.body(connection.input())));
          };
      return within(connection, method, path, limit, exchange);
    }
  }

  /** Writes a bodiless request and reads nothing, for a process about to end (that closes it). */
  void sendOnly(String method, String path) throws IOException {
    Connection.open(address).output().write(request(method, path, null, false));
  }

  /**
   * POSTs and returns once the head of a 200 (or, with {@code upgrade}, a 101) is in, to read the
   * body as it comes (a pull, a wait) or an attach's raw stream; any other answer: {@link
   * EngineError}.
   */
  Connection stream(String path, boolean upgrade, Duration headLimit) throws IOException {
    Connection connection = Connection.open(address);
    Step<Head> exchange =
        () -> {
          Head head = send(connection, "POST", path, null, upgrade);
          if (head.status() != 200 && !(upgrade && head.status() == 101)) {
            Response answer = new Response(head.status(), readAll(head.body(connection.input())));
            throw EngineError.of(answer, "POST " + path);
          }
          return head;
        };
    Head head = within(connection, "POST", path, headLimit, exchange);
    InputStream body = head.status() == 101 ? connection.input() : head.body(connection.input());
    return new Connection(body, connection.output(), connection.resource(), connection.channel());
  }

  private interface Step<T> {
    T run() throws IOException;
  }

  /** Runs {@code step} with the connection closed at the deadline, and closed if it fails. */
  private <T> T within(
      Connection connection, String method, String path, Duration limit, Step<T> step)
      throws IOException {
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
      return step.run();
    } catch (IOException | RuntimeException e) {
      connection.close();
      if (expired.get()) {
        String what = "the engine did not answer %s %s within %d ms";
        throw new IOException(String.format(what, method, path, limit.toMillis()), e);
      }
      throw e;
    } finally {
      deadline.cancel(false);
    }
  }

  private Head send(Connection connection, String method, String path, String json, boolean upgrade)
      throws IOException {
    connection.output().write(request(method, path, json, upgrade));
    return Head.read(connection.input());
  }

  private byte[] request(String method, String path, String json, boolean upgrade) {
    byte[] body = json == null ? new byte[0] : json.getBytes(StandardCharsets.UTF_8);
    StringBuilder head = new StringBuilder(256);
    head.append(method).append(' ').append(prefix).append(path).append(" HTTP/1.1\r\n");
    head.append("Host: docker\r\nUser-Agent: cinch-mcp\r\n");
    head.append(upgrade ? "Connection: Upgrade\r\nUpgrade: tcp\r\n" : "Connection: close\r\n");
    if (json != null) {
      head.append("Content-Type: application/json\r\n");
    }
    if (json != null || method.equals("POST") || method.equals("PUT")) {
      head.append("Content-Length: ").append(body.length).append("\r\n");
    }
    byte[] bytes = head.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII);
    return ByteBuffer.allocate(bytes.length + body.length).put(bytes).put(body).array();
  }

  private static byte[] readAll(InputStream in) throws IOException {
    byte[] body = in.readNBytes(MAX_BODY + 1);
    if (body.length > MAX_BODY) {
      throw new IOException("the engine's answer is larger than " + MAX_BODY + " bytes");
    }
    return body;
  }

  /** A read (how many, or -1) or a write of {@code len} bytes at {@code off}. */
  private interface Io {
    int apply(byte[] b, int off, int len) throws IOException;
  }

  private static InputStream blocks(Io reader) {
    return new InputStream() {
      @Override
      public int read() throws IOException {
        byte[] one = new byte[1];
        return reader.apply(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        return len == 0 ? 0 : reader.apply(b, off, len);
      }
    };
  }

  private static OutputStream sink(Io writer) {
    return new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        writer.apply(b, off, len);
      }
    };
  }

  /**
   * One exchange (or an attach's raw stream); a read and a write may run on two threads at once,
   * and {@link #close()} from a third ends a blocked read. A {@link SocketChannel} is read directly
   * (a {@code Channels} input stream takes the lock its output stream writes under: a blocked read
   * would hold up a write). A Windows named pipe ({@link RandomAccessFile}) serves one operation at
   * a time: an attach there writes all its input before it reads ({@link ContainerRun}).
   *
   * @param channel the socket, or null on a pipe
   */
  record Connection(
      InputStream input, OutputStream output, Closeable resource, SocketChannel channel)
      implements AutoCloseable {

    static Connection open(EngineAddress address) throws IOException {
      String target = address.target();
      if (address.kind() == EngineAddress.Kind.NPIPE) {
        RandomAccessFile pipe = new RandomAccessFile(target, "rw");
        Io write =
            (b, off, len) -> {
              pipe.write(b, off, len);
              return len;
            };
        return new Connection(blocks(pipe::read), sink(write), pipe, null);
      }
      boolean unix = address.kind() == EngineAddress.Kind.UNIX;
      SocketChannel channel =
          unix ? SocketChannel.open(StandardProtocolFamily.UNIX) : SocketChannel.open();
      try {
        if (unix) {
          channel.connect(UnixDomainSocketAddress.of(target));
        } else {
          int colon = target.lastIndexOf(':');
          String host = target.substring(0, colon);
          int port = Integer.parseInt(target.substring(colon + 1));
          channel.socket().connect(new InetSocketAddress(host, port), 5_000);
        }
      } catch (IOException | RuntimeException e) {
        channel.close();
        throw e;
      }
      Io read = (b, off, len) -> channel.read(ByteBuffer.wrap(b, off, len));
      return new Connection(blocks(read), Channels.newOutputStream(channel), channel, channel);
    }

    /** Ends what this side sends (the program's stdin reads end-of-file); a no-op on a pipe. */
    void shutdownOutput() throws IOException {
      if (channel != null) { // a pipe cannot be half-closed: the code is read by its length
        channel.shutdownOutput();
      }
    }

    @Override
    public void close() {
      try {
        resource.close();
      } catch (IOException e) {
        // closed either way
      }
    }
  }

  record Head(int status, Map<String, String> headers) {

    /** Reads up to the blank line, byte by byte (nothing of the body). */
    static Head read(InputStream in) throws IOException {
      String statusLine = line(in);
      if (statusLine == null || !statusLine.startsWith("HTTP/1.")) {
        throw new IOException(
            "the engine's socket did not answer in HTTP"
                + (statusLine == null
                    ? " (it closed the connection)"
                    : ": " + shorten(statusLine)));
      }
      int status;
      try {
        status = Integer.parseInt(statusLine.split(" ", 3)[1]);
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
        return blocks(new Chunked(in));
      }
      long[] left = {0};
      try {
        left[0] = Long.parseLong(headers.get("content-length"));
      } catch (NumberFormatException e) { // none (or not a number): up to the end
        return in;
      }
      return blocks(
          (b, off, len) -> {
            int n = left[0] <= 0 ? -1 : in.read(b, off, (int) Math.min(len, left[0]));
            left[0] -= Math.max(n, 0);
            return n;
          });
    }

    private static String line(InputStream in) throws IOException {
      StringBuilder line = new StringBuilder();
      int c;
      while ((c = in.read()) >= 0) {
        if (c == '\n') { // CRLF, or LF alone; a CR elsewhere stays and fails the parse
          int end = line.length();
          return end > 0 && line.charAt(end - 1) == '\r'
              ? line.substring(0, end - 1)
              : line.toString();
        }
        if (line.length() > 16_384) { // every byte counts: a stream body has no deadline
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

  /** A chunked body (RFC 9112, section 7.1), trailers ignored. */
  private static final class Chunked implements Io {
    private final InputStream in;
    private long left; // of this chunk; -1 after the last

    Chunked(InputStream in) {
      this.in = in;
    }

    @Override
    public int apply(byte[] b, int off, int len) throws IOException {
      String line = left == 0 ? Head.line(in) : null;
      if (left == 0 && line != null) {
        int semicolon = line.indexOf(';');
        try {
          left = Long.parseLong((semicolon >= 0 ? line.substring(0, semicolon) : line).strip(), 16);
        } catch (NumberFormatException e) {
          throw new IOException("the engine sent a bad chunk size: " + Head.shorten(line));
        }
        while (left == 0 && (line = Head.line(in)) != null && !line.isEmpty()) {
          // trailers are not used
        }
      }
      if (left <= 0) {
        left = -1;
        return -1;
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
