package dev.cinchmcp.testkit;

import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/** The container engine the engine tests use ({@code @Requires(ENGINE)}), and its test image. */
public final class TestEngine {

  private TestEngine() {}

  public static String host() {
    String host = System.getenv("CINCH_TEST_DOCKER_HOST");
    if (host == null || host.isBlank()) {
      host = System.getenv("DOCKER_HOST");
    }
    return host == null || host.isBlank() ? "unix:///var/run/docker.sock" : host;
  }

  public static String image() {
    String image = System.getenv("CINCH_TEST_IMAGE");
    return image == null || image.isBlank() ? "cinch-test:1" : image;
  }

  /**
   * Whether an engine answers {@code GET /_ping} at {@link #host()} (a unix socket) within a
   * second: a socket file alone proves nothing (a stopped Docker leaves one behind).
   */
  public static boolean answers() {
    String host = host();
    if (!host.startsWith("unix://")) {
      return required(); // a TCP engine is used only when required, and its tests then say
    }
    Path socket = Path.of(host.substring("unix://".length()));
    if (!Files.exists(socket)) {
      return false;
    }
    ExecutorService ping = Executors.newSingleThreadExecutor();
    try {
      return ping.submit(() -> pong(socket)).get(1, TimeUnit.SECONDS);
    } catch (Exception e) {
      return false;
    } finally {
      ping.shutdownNow();
    }
  }

  private static boolean pong(Path socket) throws IOException {
    try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
      channel.write(
          ByteBuffer.wrap(
              "GET /_ping HTTP/1.1\r\nHost: docker\r\nConnection: close\r\n\r\n"
                  .getBytes(StandardCharsets.US_ASCII)));
      String answer =
          new String(Channels.newInputStream(channel).readAllBytes(), StandardCharsets.US_ASCII);
      return answer.startsWith("HTTP/1.") && answer.contains(" 200 ") && answer.endsWith("OK");
    }
  }

  public static boolean required() {
    return System.getenv("CINCH_REQUIRE_ENGINE") != null;
  }
}
