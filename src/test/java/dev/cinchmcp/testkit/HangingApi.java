package dev.cinchmcp.testkit;

import dev.cinchmcp.backend.DaemonThreads;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * An "API" that reads one request and never answers, and notices when the client drops the
 * connection: the observable sign that a cancelled call really aborted its HTTP request.
 */
public final class HangingApi implements AutoCloseable {

  private final ServerSocket socket;
  private final CountDownLatch requestRead = new CountDownLatch(1);
  private final CountDownLatch clientHungUp = new CountDownLatch(1);

  public HangingApi() throws IOException {
    socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    DaemonThreads.start("hanging-api", this::serveOne);
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + socket.getLocalPort();
  }

  public boolean awaitRequest(long seconds) throws InterruptedException {
    return requestRead.await(seconds, TimeUnit.SECONDS);
  }

  public boolean awaitHangUp(long seconds) throws InterruptedException {
    return clientHungUp.await(seconds, TimeUnit.SECONDS);
  }

  private void serveOne() {
    try (Socket client = socket.accept()) {
      InputStream in = client.getInputStream();
      byte[] buf = new byte[8192];
      int n;
      boolean signalled = false;
      while ((n = in.read(buf)) >= 0) {
        if (n > 0 && !signalled) {
          signalled = true;
          requestRead.countDown();
        }
      }
      clientHungUp.countDown(); // end of stream: the client closed its side
    } catch (IOException e) {
      clientHungUp.countDown(); // a reset counts as hanging up too
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
