package dev.cinchmcp.backend.docker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The attach stream's framing, as dockerd 20.10 sends it (measured: 16 KiB frames). */
class OutputFramesTest {

  private static void frame(ByteArrayOutputStream out, int stream, byte[] payload) {
    int n = payload.length;
    out.write(stream);
    out.write(0);
    out.write(0);
    out.write(0);
    out.write(n >>> 24);
    out.write(n >>> 16);
    out.write(n >>> 8);
    out.write(n);
    out.writeBytes(payload);
  }

  private static void frame(ByteArrayOutputStream out, int stream, String text) {
    frame(out, stream, text.getBytes(StandardCharsets.UTF_8));
  }

  /** What OutputFrames makes of this attach stream, read to its end. */
  private static OutputFrames drained(byte[] stream) {
    OutputFrames frames = new OutputFrames(null);
    frames.drain(new ByteArrayInputStream(stream));
    return frames;
  }

  @Test
  void stdoutAndStderrAreSplitWhateverTheOrder() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    frame(bytes, 2, "warning\n");
    frame(bytes, 1, "42\n");
    frame(bytes, 2, "done\n");
    OutputFrames frames = drained(bytes.toByteArray());
    assertEquals("42\n", frames.stdout().text());
    assertEquals("warning\ndone\n", frames.stderr(null).text());
  }

  @Test
  void aCharacterSplitAcrossFramesIsWhole() {
    byte[] smile = "\uD83D\uDE00".getBytes(StandardCharsets.UTF_8); // four bytes
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    frame(bytes, 1, Arrays.copyOfRange(smile, 0, 1));
    frame(bytes, 1, Arrays.copyOfRange(smile, 1, 3));
    frame(bytes, 1, Arrays.copyOfRange(smile, 3, 4));
    OutputFrames frames = drained(bytes.toByteArray());
    assertEquals("\uD83D\uDE00", frames.stdout().text());
  }

  @Test
  void invalidBytesAndACutAtTheEndBecomeReplacementCharacters() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    frame(bytes, 1, new byte[] {'a', (byte) 0xff, 'b', (byte) 0xe2, (byte) 0x82});
    OutputFrames frames = drained(bytes.toByteArray());
    assertEquals("a\uFFFDb\uFFFD", frames.stdout().text());
  }

  @Test
  void aFloodInSixteenKibFramesIsCutAndCounted() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    byte[] chunk = new byte[16 * 1024];
    Arrays.fill(chunk, (byte) 'x');
    for (int i = 0; i < 200; i++) {
      frame(bytes, 1, chunk);
    }
    frame(bytes, 1, "end\n");
    OutputFrames frames = drained(bytes.toByteArray());
    assertEquals(200L * 16 * 1024 + 4, frames.stdout().originalLength());
    assertTrue(frames.stdout().truncated());
    assertTrue(frames.stdout().tail().endsWith("xend\n"));
  }

  @Test
  void aStreamCutInTheMiddleOfAFrameKeepsWhatCame() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    frame(bytes, 1, "complete\n");
    byte[] whole = bytes.toByteArray();
    ByteArrayOutputStream cut = new ByteArrayOutputStream();
    cut.writeBytes(whole);
    frame(cut, 1, "partial line");
    byte[] truncated = Arrays.copyOf(cut.toByteArray(), cut.size() - 5);
    OutputFrames frames = drained(truncated);
    assertEquals("complete\npartial", frames.stdout().text());
    assertEquals("\n[sandbox] note\n", "\n" + frames.stderr("[sandbox] note").text());
  }

  // A container started ahead of time (ContainerSpec#MARK): its first stdout byte says it has the
  // program, and its end marks, the last bytes of each stream, say how it ended.

  private static final String TOKEN = "0123456789abcdef0123456789abcdef";

  private static String end(int status) {
    return "\u0006" + TOKEN + " " + String.format("%03d", status) + "\n";
  }

  private static OutputFrames drainedMarked(byte[] stream, boolean[] taken) {
    OutputFrames frames = new OutputFrames(null);
    taken[0] =
        frames.drainMarked(new ByteArrayInputStream(stream), ContainerSpec.endMarkPrefix(TOKEN));
    return frames;
  }

  @Test
  void theEndMarksGiveTheStatusAndAreNotOutputWhereverTheReadsSplitThem() {
    String out = "x".repeat(40) + "\n";
    String err = "Traceback ...\n";
    String all = out + end(3);
    for (int cut = 0; cut <= all.length(); cut++) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      frame(bytes, 1, "\u0006" + all.substring(0, cut)); // the mark "taken", then output
      frame(bytes, 2, err + end(3));
      if (cut < all.length()) {
        frame(bytes, 1, all.substring(cut));
      }
      frame(bytes, 1, "a straggler after the end"); // not read: the program has ended
      boolean[] taken = new boolean[1];
      OutputFrames frames = drainedMarked(bytes.toByteArray(), taken);
      assertTrue(taken[0]);
      assertEquals(3, frames.endStatus(), "cut at " + cut);
      assertEquals(out, frames.stdout().text(), "cut at " + cut);
      assertEquals(err, frames.stderr(null).text());
    }
  }

  @Test
  void withoutBothEndMarksTheStatusIsTheEnginesAndWhatLookedLikeAMarkIsOutput() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    frame(bytes, 1, "\u00061\n\u0006" + TOKEN.substring(0, 10)); // killed mid-write, say
    frame(bytes, 2, "\u0006ffffffffffffffffffffffffffffffff 000\n"); // another token
    boolean[] taken = new boolean[1];
    OutputFrames frames = drainedMarked(bytes.toByteArray(), taken);
    assertTrue(taken[0]);
    assertEquals(-1, frames.endStatus());
    // Output it is, the control character shown as its symbol as any other (OutputCleaner).
    assertEquals("1\n\u2406" + TOKEN.substring(0, 10), frames.stdout().text());
    assertEquals("\u2406ffffffffffffffffffffffffffffffff 000\n", frames.stderr(null).text());
  }

  @Test
  void noFirstMarkMeansTheProgramNeverStarted() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    frame(bytes, 2, "python3: not found\n");
    boolean[] taken = new boolean[1];
    drainedMarked(bytes.toByteArray(), taken);
    assertEquals(false, taken[0]);
  }
}
