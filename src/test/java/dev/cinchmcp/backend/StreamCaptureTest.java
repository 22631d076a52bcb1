package dev.cinchmcp.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.text.CappedText;
import dev.cinchmcp.text.WireCost;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StreamCaptureTest {

  private static final String EMOJI = "\uD83D\uDE00"; // one code point, two chars

  private static CappedText capture(String text) {
    return StreamCapture.of(text);
  }

  /** The same text handed over in pieces of random sizes, as a stream arrives. */
  private static CappedText inPieces(String text, long seed) {
    StreamCapture capture = new StreamCapture();
    Random random = new Random(seed);
    char[] chars = text.toCharArray();
    int i = 0;
    while (i < chars.length) {
      int n = Math.min(chars.length - i, 1 + random.nextInt(9000));
      if (n == 1) {
        capture.append(chars[i]);
      } else {
        capture.append(chars, i, n);
      }
      i += n;
    }
    return capture.result();
  }

  @ParameterizedTest(name = "{0} characters")
  @ValueSource(ints = {0, 1, 7_900, 19_999, 20_000})
  void aStreamUpToTheLimitIsKeptWhole(int length) {
    String text = "x".repeat(length);
    CappedText c = capture(text);

    assertEquals(text, c.text());
    assertFalse(c.truncated());
    assertEquals(length, c.originalLength());
  }

  @ParameterizedTest(name = "{0} characters")
  @ValueSource(ints = {20_001, 20_002, 100_000, 5_000_000})
  void aLongerStreamKeepsItsStartAndEndWithExactCounts(int length) {
    String text = "0123456789".repeat(length / 10 + 1).substring(0, length);
    CappedText c = capture(text);

    assertTrue(c.truncated());
    assertEquals(text.substring(0, CappedText.HEAD), c.head());
    assertEquals(text.substring(length - CappedText.TAIL), c.tail());
    assertEquals(length, c.originalLength());
    assertEquals(length - CappedText.HEAD - CappedText.TAIL, c.omittedChars());
    assertTrue(c.text().length() <= CappedText.LIMIT, "shown " + c.text().length());
  }

  @Test
  void linesLeftOutAreCounted() {
    String text = "line\n".repeat(10_000); // 50,000 characters, 10,000 line breaks
    CappedText c = capture(text);

    long shown =
        c.head().chars().filter(ch -> ch == '\n').count()
            + c.tail().chars().filter(ch -> ch == '\n').count();
    assertEquals(10_000 - shown, c.omittedLines());
    assertEquals(50_000 - 7_900 - 12_000, c.omittedChars());
    assertTrue(c.marker().contains("30,100 characters ("), c.marker());
  }

  @Test
  void theHeadNeverEndsInHalfAPair() {
    String text = "a".repeat(CappedText.HEAD - 1) + EMOJI + "b".repeat(30_000);
    CappedText c = capture(text);

    assertEquals("a".repeat(CappedText.HEAD - 1), c.head());
    assertEquals(text.length() - c.head().length() - c.tail().length(), c.omittedChars());
  }

  @Test
  void theTailNeverStartsWithHalfAPair() {
    String text = "b".repeat(30_000) + EMOJI + "c".repeat(CappedText.TAIL - 1);
    CappedText c = capture(text);

    assertEquals("c".repeat(CappedText.TAIL - 1), c.tail());
    assertEquals(text.length() - c.head().length() - c.tail().length(), c.omittedChars());
  }

  @Test
  void aPairThatFitsIsKeptAtEitherCut() {
    String text =
        "a".repeat(CappedText.HEAD - 2)
            + EMOJI
            + "b".repeat(30_000)
            + EMOJI
            + "c".repeat(CappedText.TAIL - 2);
    CappedText c = capture(text);

    assertTrue(c.head().endsWith(EMOJI));
    assertTrue(c.tail().startsWith(EMOJI));
  }

  @Test
  void costlyCharactersAreKeptWithinTheByteLimit() {
    String text = "\u6f22".repeat(20_000); // three bytes each in UTF-8
    CappedText c = capture(text);

    assertTrue(c.truncated());
    assertTrue(WireCost.of(c.text()) <= CappedText.LIMIT_BYTES, "" + WireCost.of(c.text()));
    assertEquals(CappedText.HEAD_BYTES / 3, c.head().length());
    assertEquals(CappedText.TAIL_BYTES / 3, c.tail().length());
    assertEquals(20_000 - c.head().length() - c.tail().length(), c.omittedChars());
  }

  @Test
  void terminalCodesCountInTheLengthButNotInTheLimit() {
    String colouredLine = "\u001b[31mred\u001b[0m\n"; // 13 characters, 4 shown
    String text = colouredLine.repeat(10_000);
    CappedText c = capture(text);

    assertTrue(c.truncated());
    assertTrue(c.head().startsWith("red\nred\n"));
    assertEquals(text.length(), c.originalLength());
    // Every shown "red\n" stands for 13 original characters; the codes at the very end count too.
    long shownLines = (c.head() + c.tail()).chars().filter(ch -> ch == '\n').count();
    assertEquals(text.length() - 13 * shownLines, c.omittedChars());
    assertTrue(c.cleaned());
  }

  @Test
  void aFloodOfOneControlCharacterIsOneShortRun() {
    CappedText c = capture("\u0001".repeat(30_000));

    assertEquals("[\u2401 \u00D730000]", c.text());
    assertFalse(c.truncated());
    assertEquals(30_000, c.originalLength());
  }

  @Test
  void piecesOfAnySizeGiveTheSameResult() {
    StringBuilder sb = new StringBuilder();
    Random random = new Random(7);
    String[] parts = {
      "abc", "\n", EMOJI, "\u001b[1;32m", "\u0001", "\r\n", "\r", "\uD800", "\u0085", "\u00e9"
    };
    while (sb.length() < 80_000) {
      sb.append(parts[random.nextInt(parts.length)]);
    }
    String text = sb.toString();
    CappedText whole = capture(text);

    for (long seed = 1; seed <= 5; seed++) {
      assertEquals(whole, inPieces(text, seed), "seed " + seed);
    }
  }

  @Test
  void longPlainRunsInBulkGiveWhatOneCharacterAtATimeGives() {
    Random random = new Random(11);
    for (int round = 0; round < 20; round++) {
      StringBuilder sb = new StringBuilder();
      while (sb.length() < 10_000 + random.nextInt(60_000)) {
        sb.append(
            String.valueOf((char) ('a' + random.nextInt(26))).repeat(1 + random.nextInt(25_000)));
        sb.append(random.nextBoolean() ? "\n" : EMOJI);
      }
      String text = sb.toString();
      StreamCapture oneByOne = new StreamCapture();
      for (char c : text.toCharArray()) {
        oneByOne.append(c);
      }
      CappedText expected = oneByOne.result();

      assertEquals(expected, inPieces(text, round), "round " + round);
      assertEquals(expected, capture(text), "round " + round);
    }
  }

  @Test
  void aStreamThatGoesOnAfterAResultKeepsCounting() {
    StreamCapture capture = new StreamCapture();
    capture.append("x".repeat(25_000));
    CappedText first = capture.result();
    capture.append("\nnote\n");
    CappedText second = capture.result();

    assertEquals(25_000, first.originalLength());
    assertEquals(25_006, second.originalLength());
    assertTrue(second.tail().endsWith("\nnote\n"));
  }

  @Test
  void heldCharactersStayWithinTheLimitHoweverLongTheStream() {
    StreamCapture capture = new StreamCapture();
    char[] chunk = "y".repeat(8192).toCharArray();
    for (int i = 0; i < 1_000; i++) {
      capture.append(chunk, 0, chunk.length);
    }
    assertTrue(capture.heldCharacters() <= CappedText.LIMIT, "" + capture.heldCharacters());
    assertEquals(8_192_000L, capture.result().originalLength());
  }
}
