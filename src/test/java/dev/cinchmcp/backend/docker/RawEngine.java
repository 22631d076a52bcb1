package dev.cinchmcp.backend.docker;

import dev.cinchmcp.backend.DaemonThreads;
import java.io.IOException;
import java.io.InputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A unix socket that answers HTTP/1.1 as an engine would, one answer per connection, made by a
 * function of the request line ("GET /v1.41/info"): for what the real engine here cannot show (a
 * registry pull, an engine that refuses a version). Not a stand-in for our classes: the client
 * under test speaks to it over a real socket.
 */
final class RawEngine implements AutoCloseable {

  private final ServerSocketChannel server;
  private final Path socket;
  private final List<String> requests = new CopyOnWriteArrayList<>();

  RawEngine(Path socket, Function<String, String> answer) throws IOException {
    this.socket = socket;
    this.server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    server.bind(UnixDomainSocketAddress.of(socket));
    DaemonThreads.start(
        "raw-engine",
        () -> {
          while (server.isOpen()) {
            try (SocketChannel client = server.accept()) {
              String line = readHead(Channels.newInputStream(client)).split(" HTTP/1.1")[0];
              requests.add(line);
              String reply = answer.apply(line);
              client.write(ByteBuffer.wrap(reply.getBytes(StandardCharsets.UTF_8)));
            } catch (IOException e) {
              // closed
            }
          }
        });
  }

  /** An HTTP request's head, up to its blank line (or what came before the end of input). */
  static String readHead(InputStream in) throws IOException {
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int c = in.read();
      if (c < 0) {
        break;
      }
      head.append((char) c);
    }
    return head.toString();
  }

  EngineAddress address() {
    return new EngineAddress(EngineAddress.Kind.UNIX, socket.toString(), "test");
  }

  List<String> requests() {
    return List.copyOf(requests);
  }

  static String json(int status, String body) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    return "HTTP/1.1 "
        + status
        + " X\r\nContent-Type: application/json\r\nContent-Length: "
        + bytes.length
        + "\r\n\r\n"
        + body;
  }

  /** A chunked answer, one chunk per line, as a pull's progress comes. */
  static String chunkedLines(String... lines) {
    StringBuilder out = new StringBuilder("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
    for (String line : lines) {
      String chunk = line + "\r\n";
      out.append(Integer.toHexString(chunk.getBytes(StandardCharsets.UTF_8).length))
          .append("\r\n")
          .append(chunk)
          .append("\r\n");
    }
    return out.append("0\r\n\r\n").toString();
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
