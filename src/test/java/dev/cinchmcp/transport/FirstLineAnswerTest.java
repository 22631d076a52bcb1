package dev.cinchmcp.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.mcp2026.ServerInfo;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The launcher answers a discover waiting on stdin and hands anything else to its child: between
 * the two, the child reads stdin exactly as the client wrote it.
 */
class FirstLineAnswerTest {

  /** Claude Code's opening, as it writes it. */
  private static final String DISCOVER =
      "{\"method\":\"server/discover\",\"params\":{\"_meta\":{"
          + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
          + "\"io.modelcontextprotocol/clientCapabilities\":{\"roots\":{\"listChanged\":true}},"
          + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"claude-code\",\"version\":\"2\"}}},"
          + "\"jsonrpc\":\"2.0\",\"id\":\"server-discover-probe-1\"}\n";

  private static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
          + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
          + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n";

  private static final String NEXT = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"tools/list\"}\n";

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** What the child reads: the launcher's hand-over, then the stdin it inherits. */
  private static byte[] childReads(FirstLineHandOver handOver, InputStream stdin)
      throws IOException {
    return new EarlyInput(stdin, handOver).readAllBytes();
  }

  @Test
  void aWaitingDiscoverIsAnsweredAndTheChildReadsOnFromTheNextLine() throws IOException {
    ByteArrayInputStream stdin = new ByteArrayInputStream(bytes(DISCOVER + NEXT));
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();

    FirstLineHandOver handOver = FirstLineHandOver.answerWaiting(stdin, stdout);

    assertTrue(handOver.isAnswered());
    assertArrayEquals(
        ServerInfo.earlyDiscover().answerLine(bytes(DISCOVER)),
        stdout.toByteArray(),
        "the same answer the server gives");
    assertArrayEquals(bytes(NEXT), childReads(handOver, stdin));
  }

  @Test
  void aFirstLineThatIsNoDiscoverIsHandedOnWhole() throws IOException {
    ByteArrayInputStream stdin = new ByteArrayInputStream(bytes(INITIALIZE + NEXT));
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();

    FirstLineHandOver handOver = FirstLineHandOver.answerWaiting(stdin, stdout);

    assertFalse(handOver.isAnswered());
    assertEquals(0, stdout.size(), "nothing is written for a line the launcher does not answer");
    assertEquals(NEXT.length(), stdin.available(), "nothing after the first line is taken");
    assertArrayEquals(bytes(INITIALIZE + NEXT), childReads(handOver, stdin));
  }

  @Test
  void aLongFirstLineIsReadUpToTheLimitAndTheChildReadsTheRest() throws IOException {
    String call =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"execute_code\","
            + "\"arguments\":{\"code\":\"#"
            + "x".repeat(3 * FirstLineHandOver.MAX_LAUNCHER_LINE)
            + "\"}}}\n";
    ByteArrayInputStream stdin = new ByteArrayInputStream(bytes(call + NEXT));

    FirstLineHandOver handOver =
        FirstLineHandOver.answerWaiting(stdin, new ByteArrayOutputStream());

    assertEquals(
        call.length() + NEXT.length() - FirstLineHandOver.MAX_LAUNCHER_LINE, stdin.available());
    assertArrayEquals(bytes(call + NEXT), childReads(handOver, stdin));
  }

  @Test
  void aDiscoverCutShortByTheEndOfInputIsHandedOnUnanswered() throws IOException {
    String cut = DISCOVER.substring(0, DISCOVER.length() - 1); // no newline: not whole
    ByteArrayInputStream stdin = new ByteArrayInputStream(bytes(cut));
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();

    FirstLineHandOver handOver = FirstLineHandOver.answerWaiting(stdin, stdout);

    assertFalse(handOver.isAnswered());
    assertEquals(0, stdout.size());
    assertArrayEquals(bytes(cut), childReads(handOver, stdin));
  }

  /** What stdin says is waiting on it; nothing may be read from it. */
  private interface Waiting {
    int available() throws IOException;
  }

  private static InputStream notToBeRead(Waiting waiting) {
    return new InputStream() {
      @Override
      public int available() throws IOException {
        return waiting.available();
      }

      @Override
      public int read() {
        throw new AssertionError("the launcher must not wait for a client that has not spoken");
      }
    };
  }

  @Test
  void withNothingWaitingNothingIsReadAndTheChildReadsItAll() {
    assertSame(
        FirstLineHandOver.NONE,
        FirstLineHandOver.answerWaiting(notToBeRead(() -> 0), new ByteArrayOutputStream()));
  }

  @Test
  void aStdinThatCannotSayWhatIsWaitingIsLeftToTheChild() {
    Waiting unknown =
        () -> {
          throw new IOException("not a pipe, a file or a terminal");
        };
    assertSame(
        FirstLineHandOver.NONE,
        FirstLineHandOver.answerWaiting(notToBeRead(unknown), new ByteArrayOutputStream()));
  }

  @Test
  void anErrorReadingHandsOnWhatWasRead() throws IOException {
    byte[] part = bytes("{\"jsonrpc\":");
    InputStream failing =
        new InputStream() {
          private int at;

          @Override
          public int available() {
            return 1;
          }

          @Override
          public int read() throws IOException {
            if (at < part.length) {
              return part[at++];
            }
            throw new IOException("stdin failed");
          }
        };
    FirstLineHandOver handOver =
        FirstLineHandOver.answerWaiting(failing, new ByteArrayOutputStream());
    assertFalse(handOver.isAnswered());
    assertEquals("FirstLineHandOver[" + part.length + " bytes unanswered]", handOver.toString());
  }
}
