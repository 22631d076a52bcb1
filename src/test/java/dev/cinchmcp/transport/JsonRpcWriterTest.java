package dev.cinchmcp.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class JsonRpcWriterTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** How a test's stdout takes bytes; a single byte comes as a write of one. */
  private interface Writes {
    void write(byte[] b, int off, int len) throws IOException;
  }

  private static JsonRpcWriter writerOver(Writes writes) {
    return new JsonRpcWriter(
        JSON,
        new OutputStream() {
          @Override
          public void write(int b) throws IOException {
            writes.write(new byte[] {(byte) b}, 0, 1);
          }

          @Override
          public void write(byte[] b, int off, int len) throws IOException {
            writes.write(b, off, len);
          }
        });
  }

  @Test
  void concurrentWritesNeverInterleave() throws Exception {
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    // A stream that writes in small pieces makes interleaving likely if the lock were missing.
    JsonRpcWriter writer =
        writerOver(
            (b, off, len) -> {
              for (int i = 0; i < len; i += 7) {
                sink.write(b, off + i, Math.min(7, len - i));
                Thread.yield();
              }
            });
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      int thread = t;
      done.add(
          pool.submit(
              () -> {
                for (int i = 0; i < 200; i++) {
                  writer.write(
                      Map.of(
                          "jsonrpc",
                          "2.0",
                          "id",
                          thread * 1000 + i,
                          "result",
                          Map.of("text", "line one\nline two \u2603 " + "x".repeat(i * 10))));
                }
              }));
    }
    for (Future<?> f : done) {
      f.get();
    }
    pool.shutdown();
    String[] lines = sink.toString(StandardCharsets.UTF_8).split("\n");
    assertEquals(1600, lines.length);
    Set<Integer> ids = new HashSet<>();
    for (String line : lines) {
      JsonNode node = JSON.readTree(line);
      ids.add(node.get("id").asInt());
      assertEquals(
          true, node.path("result").path("text").asText().startsWith("line one\nline two"));
    }
    assertEquals(1600, ids.size());
  }

  @Test
  void writeAfterStdoutClosedReportsFalseInsteadOfThrowing() {
    JsonRpcWriter writer =
        writerOver(
            (b, off, len) -> {
              throw new IOException("Broken pipe");
            });
    assertEquals(false, writer.write(Map.of("jsonrpc", "2.0")));
    assertEquals(false, writer.write(Map.of("jsonrpc", "2.0")));
  }

  @Test
  void closingWhileAWriteIsStuckReturnsByTheDeadlineAndCountsWhatWasNotWritten() throws Exception {
    java.util.concurrent.CountDownLatch stuck = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch never = new java.util.concurrent.CountDownLatch(1);
    JsonRpcWriter writer =
        writerOver(
            (b, off, len) -> {
              stuck.countDown();
              try {
                never.await(); // a client that does not read: the pipe is full
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    ExecutorService pool = Executors.newCachedThreadPool();
    try {
      pool.submit(() -> writer.write(Map.of("jsonrpc", "2.0", "id", 1)));
      stuck.await();
      pool.submit(() -> writer.write(Map.of("jsonrpc", "2.0", "id", 2))); // waits for the first
      long deadline = System.nanoTime() + 200_000_000L;

      int dropped = writer.close(deadline);

      assertTrue(System.nanoTime() - deadline < 2_000_000_000L, "close waited past its deadline");
      assertTrue(dropped >= 1, "the stuck write counts as dropped: " + dropped);
      assertEquals(false, writer.write(Map.of("jsonrpc", "2.0", "id", 3)), "closed now");
    } finally {
      never.countDown();
      pool.shutdownNow();
    }
  }

  @Test
  void aMessageThatCannotBeSerialisedDoesNotStopLaterOnes() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    JsonRpcWriter writer = new JsonRpcWriter(JSON, out);
    Object unserialisable =
        new Object() {
          @SuppressWarnings("unused")
          public Object getSelf() {
            throw new IllegalStateException("no");
          }
        };
    assertEquals(false, writer.write(Map.of("jsonrpc", "2.0", "result", unserialisable)));
    assertEquals(true, writer.write(Map.of("id", 1)));
    assertEquals("{\"id\":1}\n", out.toString(StandardCharsets.UTF_8));
  }

  @Test
  void lineSeparatorsAreEscapedSoNoClientSeesALineEnd() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new JsonRpcWriter(JSON, out).write(Map.of("text", "a\u2028b\u2029c\u0085d\u00e9"));
    assertEquals(
        "{\"text\":\"a\\u2028b\\u2029c\\u0085d\u00e9\"}\n", out.toString(StandardCharsets.UTF_8));
  }
}
