package dev.cinchmcp.backend.docker;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Marks every container with the server that made it ({@value #OWNER}): what a dead server left is
 * removed when a server starts on the same machine; another live server's are never touched.
 *
 * @param machine this machine's id (/etc/machine-id, else its host name)
 * @param startMillis when the server's process started, so that a reused pid is not taken for it
 */
record Labels(String machine, long pid, long startMillis) {

  private static final Logger log = LoggerFactory.getLogger(Labels.class);

  static final String OWNER = "dev.cinchmcp.owner";

  private static final AtomicLong RUNS = new AtomicLong();

  static Labels ofThisProcess() {
    ProcessHandle self = ProcessHandle.current();
    return new Labels(
        machineId(), self.pid(), self.info().startInstant().map(i -> i.toEpochMilli()).orElse(0L));
  }

  String owner() {
    return machine + "/" + pid + "/" + startMillis;
  }

  /** A fresh container name: cinchmcp-PID-N. */
  String nextName() {
    return "cinchmcp-" + pid + "-" + RUNS.incrementAndGet();
  }

  /** Whether this owner label's server is gone: same machine, no process of that pid and start. */
  boolean orphaned(String owner) {
    String[] parts = owner.split("/");
    if (parts.length != 3 || !parts[0].equals(machine)) {
      return false; // another machine's (an engine shared over the network): not ours to judge
    }
    try {
      long otherPid = Long.parseLong(parts[1]);
      long otherStart = Long.parseLong(parts[2]);
      if (otherPid == pid && otherStart == startMillis) {
        return false;
      }
      return ProcessHandle.of(otherPid)
          .map(p -> p.info().startInstant().map(i -> i.toEpochMilli() != otherStart).orElse(false))
          .orElse(true);
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /** Removes every container that dead servers of this machine left behind; how many. */
  int sweep(Engine engine) {
    int removed = 0;
    try {
      for (JsonNode container : engine.containersLabelled(OWNER)) {
        String owner = container.path("Labels").path(OWNER).asText("");
        if (orphaned(owner)) {
          engine.remove(container.path("Id").asText(), Engine.REMOVE_LIMIT);
          removed++;
        }
      }
    } catch (IOException e) {
      log.debug("Looking for containers of dead servers failed: {}", e.toString());
    }
    return removed;
  }

  private static String machineId() {
    for (String file : new String[] {"/etc/machine-id", "/var/lib/dbus/machine-id"}) {
      try {
        String id = Files.readString(Path.of(file), StandardCharsets.US_ASCII).strip();
        if (!id.isEmpty()) {
          return id;
        }
      } catch (IOException | RuntimeException e) {
        // next
      }
    }
    String host = System.getenv().getOrDefault("COMPUTERNAME", System.getenv("HOSTNAME"));
    if (host == null) {
      try {
        host = java.net.InetAddress.getLocalHost().getHostName();
      } catch (IOException e) {
        host = "unknown";
      }
    }
    return host.replace('/', '_');
  }
}
