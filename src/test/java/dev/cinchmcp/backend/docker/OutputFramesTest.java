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
    OutputFrames frames = new OutputFrames();
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
}
