package dev.cinchmcp.testkit;

import dev.cinchmcp.backend.DaemonThreads;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/**
 * An "API" that answers as slowly as it likes, chosen by the program it is sent: {@code trickle}
 * (headers, then a body one byte every 100 ms that never ends), {@code headers} (headers, then
 * nothing), {@code silent} (nothing at all). Each connection has its own thread, so one stall never
 * slows another; whatever waits longer is the client's doing.
 */
public final class StalledApi implements AutoCloseable {

  private final ServerSocket socket;

  public StalledApi() throws IOException {
    socket = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
    DaemonThreads.start("stalled-api", this::acceptAll);
  }

  public URI runUri() {
    return URI.create("http://127.0.0.1:" + socket.getLocalPort() + "/run");
  }

  private void acceptAll() {
    while (!socket.isClosed()) {
      try {
        Socket client = socket.accept();
        DaemonThreads.start("stalled-api-conn", () -> serve(client));
      } catch (IOException e) {
        return;
      }
    }
  }

  private static void serve(Socket client) {
    try (client) {
      InputStream in = client.getInputStream();
      String request = readRequest(in);
      OutputStream out = client.getOutputStream();
      if (request.contains("silent")) {
        in.transferTo(OutputStream.nullOutputStream()); // until the client hangs up
        return;
      }
      out.write(
          ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      if (request.contains("headers")) {
        in.transferTo(OutputStream.nullOutputStream());
        return;
      }
      out.write("{\"stdout\":\"".getBytes(StandardCharsets.US_ASCII));
      while (true) {
        out.write('x');
        out.flush();
        Await.stall(Duration.ofMillis(100), "an API that sends one byte a tenth of a second");
      }
    } catch (IOException | InterruptedException e) {
      // the client went away: what a stalled call's abort should cause
    }
  }

  private static String readRequest(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) >= 0) {
      head.write(b);
      byte[] h = head.toByteArray();
      int n = h.length;
      if (n >= 4 && h[n - 4] == '\r' && h[n - 3] == '\n' && h[n - 2] == '\r' && h[n - 1] == '\n') {
        break;
      }
    }
    String headers = head.toString(StandardCharsets.US_ASCII);
    int length = 0;
    for (String line : headers.split("\r\n")) {
      if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
        length = Integer.parseInt(line.substring(15).strip());
      }
    }
    return headers + new String(in.readNBytes(length), StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
