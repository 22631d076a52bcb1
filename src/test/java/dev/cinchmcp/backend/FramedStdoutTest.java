package dev.cinchmcp.backend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.WrittenFiles.Kind;
import dev.cinchmcp.backend.WrittenFiles.State;
import dev.cinchmcp.text.CappedText;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The launcher's frame taken out of stdout, whatever the chunks, and only the real one. */
class FramedStdoutTest {

  private static final OutFrame FRAME = new OutFrame("00112233445566aa");
  private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 1, 2, 3};

  /** A frame as the launchers write it. */
  static String frame(OutFrame frame, String... lines) {
    StringBuilder sb = new StringBuilder(frame.open()).append('\n');
    for (String line : lines) {
      sb.append(line).append('\n');
    }
    return sb.append(frame.close()).append(' ').append(lines.length).append('\n').toString();
  }

  static String line(char kind, String name, byte[] data) {
    return kind
        + " "
        + data.length
        + " "
        + b64(name.getBytes(StandardCharsets.UTF_8))
        + " "
        + (data == null ? "-" : b64(data));
  }

  static String listed(char kind, String name, long size) {
    return kind + " " + size + " " + b64(name.getBytes(StandardCharsets.UTF_8)) + " -";
  }

  private static String b64(byte[] data) {
    return Base64.getEncoder().encodeToString(data);
  }

  private record Split(String stdout, long length, WrittenFiles files) {}

  /** Feeds the text in chunks of {@code chunk} characters. */
  private static Split feed(String text, int chunk) {
    StreamCapture capture = new StreamCapture(FRAME);
    for (int i = 0; i < text.length(); i += chunk) {
      capture.chars().append(text.substring(i, Math.min(text.length(), i + chunk)));
    }
    CappedText result = capture.result();
    return new Split(result.text(), result.originalLength(), capture.files());
  }

  private static List<Split> everyChunking(String text) {
    List<Split> splits = new ArrayList<>();
    for (int chunk : new int[] {1, 2, 3, 7, 64, 8192, Integer.MAX_VALUE / 2}) {
      splits.add(feed(text, chunk));
    }
    return splits;
  }

  @Test
  void theFrameIsTakenOutAndItsFilesDecodedWhateverTheChunks() {
    byte[] csv = "a,b\n1,2\n".getBytes(StandardCharsets.UTF_8);
    String text =
        "hello [not a frame\n"
            + frame(
                FRAME,
                line('p', "[figure 1]", PNG),
                line('t', "out/table.csv", csv),
                listed('f', "big.bin", 123_456_789),
                listed('P', "huge.png", 20_000_000),
                "m 3 999");
    for (Split split : everyChunking(text)) {
      assertEquals("hello [not a frame\n", split.stdout());
      assertEquals(19, split.length(), "the frame does not count as output");
      WrittenFiles files = split.files();
      assertEquals(State.COMPLETE, files.state());
      assertEquals(4, files.files().size());
      assertEquals("[figure 1]", files.files().get(0).name());
      assertTrue(files.files().get(0).figure());
      assertArrayEquals(PNG, files.files().get(0).data());
      assertEquals(Kind.TEXT, files.files().get(1).kind());
      assertArrayEquals(csv, files.files().get(1).data());
      assertEquals(123_456_789, files.files().get(2).size());
      assertNull(files.files().get(2).data());
      assertEquals(Kind.PICTURE_TOO_LARGE, files.files().get(3).kind());
      assertEquals(3, files.unlisted());
      assertEquals(999, files.unlistedBytes());
    }
  }

  @Test
  void outputWithoutTheNonceIsOutputEvenWhenItImitatesTheFrame() {
    OutFrame other = new OutFrame("ffffffffffffffff");
    String imitation =
        frame(other, line('p', "x.png", PNG)) + "[cinch-mcp files 00112233445566a" + "[cinch";
    for (Split split : everyChunking(imitation + frame(FRAME))) {
      assertEquals(imitation, split.stdout());
      assertEquals(State.COMPLETE, split.files().state());
      assertTrue(split.files().files().isEmpty());
    }
  }

  @Test
  void aMarkersStartAtTheEndOfTheStreamIsText() {
    for (Split split : everyChunking("tail [cinch-mcp files 0011")) {
      assertEquals("tail [cinch-mcp files 0011", split.stdout());
      assertEquals(State.MISSING, split.files().state());
    }
  }

  @Test
  void outputAfterTheFrameIsOutputAgain() {
    Split split = feed("a\n" + frame(FRAME, line('p', "p.png", PNG)) + "late\n", 5);
    assertEquals("a\nlate\n", split.stdout());
    assertEquals(1, split.files().files().size());
  }

  @Test
  void aFrameCutShortBringsNothingAndSaysSo() {
    String whole = frame(FRAME, line('p', "p.png", PNG), line('p', "q.png", PNG));
    for (int cut :
        new int[] {
          FRAME.open().length(), FRAME.open().length() + 1, whole.length() / 2, whole.length() - 2
        }) {
      Split split = feed("out\n" + whole.substring(0, cut), 3);
      assertEquals("out\n", split.stdout());
      assertEquals(State.CUT, split.files().state(), "cut at " + cut);
      assertTrue(split.files().files().isEmpty());
    }
  }

  @Test
  void aFrameThatBreaksItsFormatIsDroppedAsDamaged() {
    List<String> broken =
        List.of(
            frame(FRAME, "p 11 eC5wbmc= !!!notbase64"),
            frame(FRAME, "p 12 eC5wbmc= " + b64(PNG)), // size says 12, data holds 11
            frame(FRAME, "z 1 eC5wbmc= -"),
            frame(FRAME, "f -1 eC5wbmc= -"),
            FRAME.open() + "\n" + line('p', "p.png", PNG) + "\n" + FRAME.close() + " 7\n",
            frame(FRAME, "p " + (WrittenFiles.MAX_FILE_BYTES + 1) + " eC5wbmc= AAAA"),
            frame(FRAME, "t " + (WrittenFiles.MAX_TEXT_BYTES + 1) + " eC5wbmc= AAAA"));
    for (String text : broken) {
      Split split = feed("kept\n" + text, 4);
      assertEquals("kept\n", split.stdout(), text);
      assertEquals(State.DAMAGED, split.files().state(), text);
      assertTrue(split.files().files().isEmpty());
      assertTrue(split.files().problem().startsWith("the frame held"), split.files().problem());
    }
  }

  @Test
  void moreThanTheLimitOfPicturesIsDamagedNotHeld() {
    String[] lines = new String[WrittenFiles.MAX_PICTURES + 1];
    for (int i = 0; i < lines.length; i++) {
      lines[i] = line('p', i + ".png", PNG);
    }
    assertEquals(State.DAMAGED, feed(frame(FRAME, lines), 100).files().state());
  }

  @Test
  void theLaunchersOwnFailureIsCarriedAsItsWords() {
    Split split = feed(frame(FRAME, listed('!', "Permission denied", 0)), 9);
    assertEquals(State.COMPLETE, split.files().state());
    assertEquals("Permission denied", split.files().problem());
  }

  @Test
  void aStreamWithoutAnyFrameSaysItIsMissing() {
    Split split = feed("just output\n", 4);
    assertEquals("just output\n", split.stdout());
    assertEquals(State.MISSING, split.files().state());
  }

  @Test
  void aLongOutputIsCutAsWithoutTheFrame() {
    String big = "x".repeat(CappedText.LIMIT * 3) + "\nend\n";
    Split framed = feed(big + frame(FRAME, line('p', "p.png", PNG)), 8192);
    CappedText plain = StreamCapture.of(big);
    assertEquals(plain.text(), framed.stdout());
    assertEquals(plain.originalLength(), framed.length());
  }
}
