package dev.cinchmcp.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.mcp2026.EarlyDiscover;
import dev.cinchmcp.mcp2026.ServerInfo;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Stdin with its first line read early: what is not answered is read back exactly. */
class EarlyInputTest {

  private static final String DISCOVER =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":{"
          + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
          + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";

  private static final EarlyDiscover EARLY = ServerInfo.earlyDiscover();

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void anAnsweredDiscoverIsNotReadAgainAndTheRestFollows() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    EarlyInput in = new EarlyInput(new ByteArrayInputStream(bytes(DISCOVER + "\r\nnext\n")));
    assertTrue(in.answerFirst(out, 5_000));
    assertTrue(in.answeredFirst());
    assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("{\"jsonrpc\":\"2.0\",\"id\":1,"));
    assertArrayEquals(bytes("next\n"), in.readAllBytes());
  }

  @Test
  void aLineNotAnsweredIsReadBackByteForByte() throws IOException {
    String input = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}\n\u00e9\n";
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    EarlyInput in = new EarlyInput(new ByteArrayInputStream(bytes(input)));
    assertFalse(in.answerFirst(out, 5_000));
    assertEquals(0, out.size());
    assertArrayEquals(bytes(input), in.readAllBytes());
  }

  @Test
  void aFirstLineLeftForTheServerIsSaidSoAndAnAnsweredOneIsNot() {
    EarlyInput initialize =
        new EarlyInput(new ByteArrayInputStream(bytes("{\"method\":\"initialize\"}\n")));
    assertFalse(initialize.answerFirst(new ByteArrayOutputStream(), 5_000));
    assertTrue(initialize.firstLineLeft());

    EarlyInput discover = new EarlyInput(new ByteArrayInputStream(bytes(DISCOVER + "\n")));
    assertTrue(discover.answerFirst(new ByteArrayOutputStream(), 5_000));
    assertFalse(discover.firstLineLeft());

    EarlyInput nothing = new EarlyInput(new ByteArrayInputStream(new byte[0]));
    assertFalse(nothing.answerFirst(new ByteArrayOutputStream(), 5_000));
    assertFalse(nothing.firstLineLeft());
  }

  @Test
  void aFirstLineLongerThanTheEarlyLimitIsHandedOnWhole() throws IOException {
    String input = "x".repeat(EarlyInput.MAX_EARLY_LINE * 2) + "\n" + DISCOVER + "\n";
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    EarlyInput in = new EarlyInput(new ByteArrayInputStream(bytes(input)));
    assertFalse(in.answerFirst(out, 5_000));
    assertArrayEquals(bytes(input), in.readAllBytes());
  }

  @Test
  void inputThatEndsWithoutANewlineIsNotAnsweredButReadBack() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    EarlyInput in = new EarlyInput(new ByteArrayInputStream(bytes(DISCOVER)));
    assertFalse(in.answerFirst(out, 5_000));
    assertArrayEquals(bytes(DISCOVER), in.readAllBytes());
    EarlyInput empty = new EarlyInput(new ByteArrayInputStream(new byte[0]));
    assertFalse(empty.answerFirst(out, 5_000));
    assertEquals(-1, empty.read());
  }

  @Test
  void aFirstLineTheLauncherAnsweredIsNeitherReadNorAnsweredAgain() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    EarlyInput in =
        new EarlyInput(
            new ByteArrayInputStream(bytes(DISCOVER + "\nnext\n")), FirstLineHandOver.answered());
    assertTrue(in.answerFirst(out, 5_000));
    assertTrue(in.answeredFirst());
    assertEquals(0, out.size(), "the launcher wrote the answer; nothing more is written");
    // What follows the launcher's line is stdin from its start: a second discover included.
    assertArrayEquals(bytes(DISCOVER + "\nnext\n"), in.readAllBytes());
  }

  @Test
  void aLineTheLauncherReadUnansweredIsReadFirst() throws IOException {
    String first = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}\n";
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    EarlyInput in =
        new EarlyInput(
            new ByteArrayInputStream(bytes("next\n")), FirstLineHandOver.unanswered(bytes(first)));
    assertFalse(in.answerFirst(out, 5_000));
    assertFalse(in.answeredFirst());
    assertArrayEquals(bytes(first + "next\n"), in.readAllBytes());
  }

  @Test
  void aPartOfALineTheLauncherReadIsCompletedFromStdin() throws IOException {
    // The launcher stops at its limit, or at the end of input: the line goes on in stdin.
    int cut = DISCOVER.length() / 2;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    EarlyInput in =
        new EarlyInput(
            new ByteArrayInputStream(bytes(DISCOVER.substring(cut) + "\nnext\n")),
            FirstLineHandOver.unanswered(bytes(DISCOVER.substring(0, cut))));
    assertTrue(in.answerFirst(out, 5_000), "the whole line is a discover");
    assertEquals(1, out.toString(StandardCharsets.UTF_8).split("\n").length);
    assertArrayEquals(bytes("next\n"), in.readAllBytes());
  }

  @Test
  void aFirstLineThatComesAfterTheWaitIsServedTheOrdinaryWay() throws Exception {
    PipedOutputStream client = new PipedOutputStream();
    PipedInputStream stdin = new PipedInputStream(client, 64 * 1024);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    EarlyInput in = new EarlyInput(stdin);
    assertFalse(in.answerFirst(out, 1)); // nothing written yet
    client.write(bytes(DISCOVER + "\nsecond\n"));
    client.close();
    assertEquals(0, out.size());
    assertArrayEquals(bytes(DISCOVER + "\nsecond\n"), in.readAllBytes());
  }

  @Test
  void closingBeforeTheFirstReadEndsIt() throws Exception {
    PipedOutputStream client = new PipedOutputStream();
    EarlyInput in = new EarlyInput(new PipedInputStream(client));
    in.close(); // as a stop on a signal does
    assertFalse(in.answerFirst(new ByteArrayOutputStream(), Long.MAX_VALUE));
    assertThrows(IOException.class, in::read);
  }

  /**
   * A read blocked in stdin need not end when stdin is closed (a pipe's does not; a file's on Linux
   * neither): the answer and every later read must still not wait for it. Before, they waited for
   * the reading thread forever.
   */
  @Test
  @Timeout(30) // a hang guard: each wait here ends at once when it works
  void closingWhileTheFirstReadIsBlockedEndsEveryWaitForIt() throws Exception {
    StdinThatIgnoresClose stdin = new StdinThatIgnoresClose();
    EarlyInput in = new EarlyInput(stdin);
    stdin.reading.await();
    in.close();
    assertTrue(stdin.closed);
    assertFalse(in.answerFirst(new ByteArrayOutputStream(), Long.MAX_VALUE));
    IOException e = assertThrows(IOException.class, in::read);
    assertEquals("stdin is closed", e.getMessage());
    stdin.release.countDown();
  }

  /** Blocks in {@code read} until released, whether closed or not. */
  private static final class StdinThatIgnoresClose extends InputStream {
    final CountDownLatch reading = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    volatile boolean closed;

    @Override
    public int read() throws IOException {
      reading.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return -1;
    }

    @Override
    public void close() {
      closed = true;
    }
  }
}
