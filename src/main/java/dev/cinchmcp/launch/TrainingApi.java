package dev.cinchmcp.launch;

import dev.cinchmcp.backend.DaemonThreads;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What a training run ({@link SelfMadeArchive#main}) serves: a session read from the jar, and a
 * Cinch API on loopback in the same JVM answering every request with one successful run (HTTP/1.1,
 * keep-alive), so the archive holds a call's whole path through the HTTP client.
 */
public final class TrainingApi implements AutoCloseable {

  /** Set in the training run: the server reads its session from the jar and writes nowhere. */
  public static final String TRAINING = "cinch.archive.training";

  private static final String SESSION = "training.jsonl";
  private static final byte[] ANSWER =
      ("{\"stdout\":\"42\\n\",\"stderr\":\"\",\"exitCode\":0,\"timedOut\":false,\"durationMs\":5}")
          .getBytes(StandardCharsets.UTF_8);

  private final ServerSocket socket;

  private TrainingApi(ServerSocket socket) {
    this.socket = socket;
  }

  static TrainingApi start() throws IOException {
    TrainingApi api = new TrainingApi(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
    DaemonThreads.start("cinch-training-api", api::accept);
    return api;
  }

  /** The training session: a short one touching what real sessions use. */
  public static InputStream session() {
    return Objects.requireNonNull(
        TrainingApi.class.getResourceAsStream(SESSION), SESSION + " is missing from the jar");
  }

  /** {@code env} with this JVM's training API as the Cinch API, if one could be started. */
  public static Map<String, String> environment(Map<String, String> env) {
    try {
      Map<String, String> training = new HashMap<>(env);
      training.put("CINCH_BASE_URL", start().baseUrl());
      return training;
    } catch (IOException e) {
      return env; // the calls then fail to connect, which trains the error path instead
    }
  }

  String baseUrl() {
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
        DaemonThreads.start("cinch-training-connection", () -> serve(connection));
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

  /** Reads one request's head: its Content-Length (0 if none), or -1 at the stream's end. */
  private static int contentLength(InputStream in) throws IOException {
    StringBuilder head = new StringBuilder("\n");
    while (head.indexOf("\r\n\r\n", head.length() - 4) < 0) {
      int c = in.read();
      if (c == -1 || head.length() > 8192) {
        return -1; // past 8 KB: not the training run's client (any local user can connect)
      }
      head.append((char) c);
    }
    String lower = head.toString().toLowerCase(Locale.ROOT);
    int at = lower.indexOf("\ncontent-length:");
    return at < 0 ? 0 : Integer.parseInt(lower.substring(at + 16, lower.indexOf('\r', at)).strip());
  }
}
