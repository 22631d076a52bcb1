package dev.cinchmcp.backend.docker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP/1.1 layer against a raw unix socket that answers as dockerd does: bodies by length,
 * chunked, the 101 of attach, and an engine that takes the connection but never answers.
 */
class EngineHttpTest {

  @TempDir Path dir;
  private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
  private ServerSocketChannel server;

  @AfterEach
  void stop() throws IOException {
    timers.shutdownNow();
    if (server != null) {
      server.close();
    }
  }

  /**
   * Serves one connection: reads the request head, answers with what {@code answer} makes of it.
   */
  private EngineHttp serve(Function<String, String> answer) throws IOException {
    Path socket = dir.resolve("e.sock");
    server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    server.bind(UnixDomainSocketAddress.of(socket));
    CompletableFuture.runAsync(
        () -> {
          try (SocketChannel client = server.accept()) {
            InputStream in = Channels.newInputStream(client);
            String head = RawEngine.readHead(in);
            if (!head.endsWith("\r\n\r\n")) {
              return;
            }
            String reply = answer.apply(head);
            if (reply != null) {
              client.write(ByteBuffer.wrap(reply.getBytes(StandardCharsets.UTF_8)));
              // Attach: echo what comes after the upgrade, framed as stdout, until end-of-file.
              if (reply.startsWith("HTTP/1.1 101")) {
                byte[] rest = in.readAllBytes();
                ByteBuffer frame = ByteBuffer.allocate(8 + rest.length);
                frame.put((byte) 1).put(new byte[3]).putInt(rest.length).put(rest).flip();
                client.write(frame);
              }
            } else {
              in.readAllBytes(); // an engine that never answers: until the client gives up
            }
          } catch (IOException e) {
            // the test is over
          }
        });
    return new EngineHttp(
        new EngineAddress(EngineAddress.Kind.UNIX, socket.toString(), "test"), "/v1.41", timers);
  }

  @Test
  void aBodyByLengthAndTheVersionedPath() throws Exception {
    String[] seen = new String[1];
    EngineHttp http =
        serve(
            head -> {
              seen[0] = head;
              return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"Id\":\"a\"}\n";
            });
    EngineHttp.Response r = http.call("GET", "/info", null, Duration.ofSeconds(5));
    assertEquals(200, r.status());
    assertEquals("{\"Id\":\"a\"}\n", r.text());
    assertTrue(seen[0].startsWith("GET /v1.41/info HTTP/1.1\r\n"), seen[0]);
    assertTrue(seen[0].contains("Connection: close\r\n"), seen[0]);
  }

  @Test
  void aChunkedBodyWithExtensionsAndTrailers() throws Exception {
    EngineHttp http =
        serve(
            head ->
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5;ext=1\r\nhello\r\n7\r\n, world\r\n0\r\nX-Trailer: 1\r\n\r\n");
    assertEquals("hello, world", http.call("POST", "/x", "{}", Duration.ofSeconds(5)).text());
  }

  @Test
  void aCarriageReturnInsideALineIsNotDropped() throws Exception {
    // "1\r0" read as "10" would take 16 bytes where the engine sent one: a CR ends a line only
    // before LF
    EngineHttp http =
        serve(
            head ->
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "1\r0\r\nabcdefghijklmnop\r\n0\r\n\r\n");
    assertThrows(IOException.class, () -> http.call("POST", "/x", "{}", Duration.ofSeconds(5)));
  }

  @Test
  void aLineOfCarriageReturnsIsCutAtTheLineLimit() throws Exception {
    EngineHttp http =
        serve(head -> "HTTP/1.1 200 OK\r\nX-Long: " + "\r".repeat(20_000) + "\n\r\n{}");
    IOException e =
        assertThrows(IOException.class, () -> http.call("GET", "/x", null, Duration.ofSeconds(5)));
    assertTrue(e.getMessage().contains("over 16 KiB"), e.getMessage());
  }

  @Test
  void anAnswerWithoutLengthRunsToTheEnd() throws Exception {
    // dockerd 20.10's /logs: no Content-Type, no length, closed at the end.
    EngineHttp http = serve(head -> "HTTP/1.1 200 OK\r\n\r\nall of it");
    assertEquals("all of it", http.call("GET", "/x", null, Duration.ofSeconds(5)).text());
  }

  @Test
  void anErrorCarriesTheEnginesMessage() throws Exception {
    EngineHttp http =
        serve(
            head ->
                "HTTP/1.1 404 Not Found\r\nContent-Length: 46\r\n\r\n"
                    + "{\"message\":\"No such image: python:3.12-slim\"}");
    EngineError e =
        assertThrows(
            EngineError.class,
            () -> http.stream("/containers/x/attach", true, Duration.ofSeconds(5)));
    assertEquals(404, e.status());
    assertEquals("No such image: python:3.12-slim", e.engineMessage());
  }

  @Test
  void theUpgradeOfAttachCarriesRawBytesBothWays() throws Exception {
    EngineHttp http =
        serve(
            head ->
                head.contains("Upgrade: tcp\r\n")
                    ? "HTTP/1.1 101 UPGRADED\r\nContent-Type: application/vnd.docker.raw-stream\r\n"
                        + "Connection: Upgrade\r\nUpgrade: tcp\r\n\r\n"
                    : "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
    try (EngineHttp.Connection attach =
        http.stream("/containers/x/attach", true, Duration.ofSeconds(5))) {
      attach.output().write("print(1)".getBytes(StandardCharsets.UTF_8));
      attach.shutdownOutput(); // the program's stdin ends
      OutputFrames frames = new OutputFrames(null);
      frames.drain(attach.input());
      assertEquals("print(1)", frames.stdout().text());
    }
  }

  @Test
  void anEngineThatNeverAnswersIsCutOffAtTheDeadline() throws Exception {
    EngineHttp http = serve(head -> null);
    IOException e =
        assertThrows(
            IOException.class, () -> http.call("GET", "/info", null, Duration.ofMillis(200)));
    assertTrue(e.getMessage().contains("did not answer GET /info within"), e.getMessage());
  }

  @Test
  void aSocketThatIsNotHttpSaysSo() throws Exception {
    EngineHttp http = serve(head -> "SSH-2.0-OpenSSH_9.2\r\n");
    IOException e =
        assertThrows(
            IOException.class, () -> http.call("GET", "/_ping", null, Duration.ofSeconds(5)));
    assertTrue(e.getMessage().contains("did not answer in HTTP"), e.getMessage());
    timers.awaitTermination(0, TimeUnit.MILLISECONDS);
  }
}
