package dev.cinchmcp.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.cinchmcp.backend.DaemonThreads;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A listening socket on every address of this host (loopback and each IPv4 address), counting the
 * connections they accept, and the Python program that tries each of them and DNS: what a sandbox
 * or a container must NOT reach.
 */
public final class HostListeners implements AutoCloseable {

  private final List<ServerSocket> servers = new ArrayList<>();
  private final List<String> targets = new ArrayList<>();
  private final AtomicInteger accepted = new AtomicInteger();

  public HostListeners() throws IOException {
    for (InetAddress address : hostAddresses()) {
      ServerSocket server = new ServerSocket(0, 50, address);
      server.setSoTimeout(200);
      servers.add(server);
      targets.add("('" + address.getHostAddress() + "', " + server.getLocalPort() + ")");
      DaemonThreads.start("accept", () -> acceptAll(server));
    }
  }

  /** Loopback, then every IPv4 address of this host's interfaces. */
  public static List<InetAddress> hostAddresses() throws IOException {
    List<InetAddress> addresses = new ArrayList<>(List.of(InetAddress.getLoopbackAddress()));
    for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
      for (InetAddress address : Collections.list(nic.getInetAddresses())) {
        if (address instanceof Inet4Address && !address.isLoopbackAddress()) {
          addresses.add(address);
        }
      }
    }
    return addresses;
  }

  /**
   * A Python program that connects to each listener and resolves a name, printing CONNECTED or
   * FAILED for each, and DNS RESOLVED or DNS FAILED.
   */
  public String pythonProbe() {
    return """
        import socket
        for target in [%s]:
            try:
                socket.create_connection(target, timeout=2).close()
                print(target, 'CONNECTED')
            except OSError as e:
                print(target, 'FAILED', e)
        try:
            socket.getaddrinfo('example.com', 80)
            print('DNS RESOLVED')
        except OSError as e:
            print('DNS FAILED', e)
        """
        .formatted(String.join(", ", targets));
  }

  /**
   * The probe's output shows every connection and the name lookup failed, and no listener accepted
   * a connection. {@code describe} is the failure's context.
   */
  public void assertNothingReached(String probeOutput, String describe, String from) {
    assertFalse(probeOutput.contains("CONNECTED"), describe);
    assertFalse(probeOutput.contains("RESOLVED"), describe);
    assertEquals(targets.size(), probeOutput.split("FAILED", -1).length - 2, describe);
    assertEquals(0, accepted.get(), "a connection from the " + from + " reached the host");
  }

  private void acceptAll(ServerSocket server) {
    while (!server.isClosed()) {
      try {
        server.accept().close();
        accepted.incrementAndGet();
      } catch (SocketTimeoutException e) {
        // keep listening
      } catch (IOException e) {
        return;
      }
    }
  }

  @Override
  public void close() throws IOException {
    for (ServerSocket server : servers) {
      server.close();
    }
  }
}
