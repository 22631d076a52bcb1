package dev.cinchmcp.launch;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The Cinch API of a training run: a loopback socket in the training JVM answering every request
 * with one successful run (HTTP/1.1, keep-alive), so the archive holds the HTTP client's whole path
 * for a call, which a real first call then no longer loads. Nothing leaves the machine; no key.
 */
public final class TrainingApi implements AutoCloseable {

  private static final byte[] ANSWER =
      ("{\"stdout\":\"42\\n\",\"stderr\":\"\",\"exitCode\":0,\"timedOut\":false,\"durationMs\":5}")
          .getBytes(StandardCharsets.UTF_8);

  private final ServerSocket socket;

  private TrainingApi(ServerSocket socket) {
    this.socket = socket;
  }

  public static TrainingApi start() throws IOException {
    TrainingApi api = new TrainingApi(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
    Thread acceptor = new Thread(api::accept, "cinch-training-api");
    acceptor.setDaemon(true);
    acceptor.start();
    return api;
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + socket.getLocalPort();
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }

  private void accept() {
    while (!socket.isClosed()) {
      try {
        Socket connection = socket.accept();
        Thread reader = new Thread(() -> serve(connection), "cinch-training-connection");
        reader.setDaemon(true);
        reader.start();
      } catch (IOException closed) {
        return;
      }
    }
  }

  private static void serve(Socket connection) {
    try (connection;
        InputStream in = new BufferedInputStream(connection.getInputStream());
        OutputStream out = connection.getOutputStream()) {
      while (true) {
        int length = contentLength(in);
        if (length < 0 || length > 16 * 1024 * 1024) {
          return;
        }
        in.readNBytes(length);
        out.write(
            ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                    + ANSWER.length
                    + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.write(ANSWER);
        out.flush();
      }
    } catch (IOException | RuntimeException gone) {
      // the training run ended, or sent what this does not read: either way, nothing to answer
    }
  }

  /** Reads one request's head; its Content-Length (0 if none), or -1 at the end of the stream. */
  private static int contentLength(InputStream in) throws IOException {
    int length = 0;
    StringBuilder line = new StringBuilder();
    for (int c; (c = in.read()) != -1; ) {
      if (c == '\n') {
        String text = line.toString().trim();
        if (text.isEmpty()) {
          return length;
        }
        String lower = text.toLowerCase(Locale.ROOT);
        if (lower.startsWith("content-length:")) {
          length = Integer.parseInt(lower.substring("content-length:".length()).trim());
        }
        line.setLength(0);
      } else if (line.length() < 8192) {
        line.append((char) c);
      } else {
        return -1; // not the training run's client (any local user can connect): hang up
      }
    }
    return -1;
  }
}
