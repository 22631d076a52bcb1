package dev.cinchmcp.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CappedTextTest {

  private static final String EMOJI = "\uD83D\uDE00"; // one code point, two chars

  @ParameterizedTest(name = "length {0}, limit {1} -> {2}")
  @CsvSource({"0, 5, 0", "3, 5, 3", "5, 5, 5", "6, 5, 5", "6, 0, 0", "1, 0, 0"})
  void cutIndexOfPlainTextIsTheLimitOrTheLength(int length, int limit, int expected) {
    assertEquals(expected, CappedText.cutIndex("x".repeat(length), limit));
  }

  @Test
  void cutIndexNeverSplitsASurrogatePair() {
    String text = "ab" + EMOJI + "cd";
    assertEquals(2, CappedText.cutIndex(text, 3), "the cut would fall between the pair's halves");
    assertEquals(4, CappedText.cutIndex(text, 4), "the whole pair fits");
    assertEquals(2, CappedText.cutIndex(text, 2), "the cut falls before the pair");
  }

  @Test
  void cutIndexAtOneWithALeadingPairKeepsNothing() {
    assertEquals(0, CappedText.cutIndex(EMOJI + "x", 1));
  }

  @Test
  void cutIndexKeepsAPairAtTheEndWhenTheTextFits() {
    assertEquals(3, CappedText.cutIndex("a" + EMOJI, 3));
  }

  @Test
  void ofNullIsEmpty() {
    assertSame(CappedText.EMPTY, CappedText.of(null));
    assertEquals("", CappedText.EMPTY.text());
    assertFalse(CappedText.EMPTY.truncated());
  }

  @Test
  void ofShortTextKeepsItAll() {
    CappedText c = CappedText.of("hello");
    assertEquals("hello", c.text());
    assertEquals(5, c.originalLength());
    assertFalse(c.truncated());
    assertEquals(0, c.cutCount());
  }

  @Test
  void ofTextAtTheLimitKeepsItAll() {
    CappedText c = CappedText.of("x".repeat(CappedText.LIMIT));
    assertFalse(c.truncated());
    assertEquals(CappedText.LIMIT, c.text().length());
  }

  @Test
  void ofTextOneOverTheLimitCutsOne() {
    CappedText c = CappedText.of("x".repeat(CappedText.LIMIT + 1));
    assertTrue(c.truncated());
    assertEquals(CappedText.LIMIT, c.text().length());
    assertEquals(CappedText.LIMIT + 1, c.originalLength());
    assertEquals(1, c.cutCount());
  }

  @Test
  void ofTextWithAPairAcrossTheLimitKeepsNoHalfPair() {
    String full = "x".repeat(CappedText.LIMIT - 1) + EMOJI + "y";
    CappedText c = CappedText.of(full);
    assertEquals(CappedText.LIMIT - 1, c.text().length());
    assertFalse(Character.isHighSurrogate(c.text().charAt(c.text().length() - 1)));
    assertEquals(full.length(), c.originalLength());
    assertEquals(3, c.cutCount());
  }

  @Test
  void nullTextIsEmpty() {
    assertEquals("", new CappedText(null, 0).text());
  }

  @Test
  void originalShorterThanKeptIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new CappedText("abc", 2));
  }

  @Test
  void runSucceedsOnlyOnExitZeroWithinTime() {
    assertTrue(new RunResult(null, null, 0, false, 1L, "cinch").succeeded());
    assertFalse(new RunResult(null, null, 1, false, 1L, "cinch").succeeded());
    assertFalse(new RunResult(null, null, 0, true, 1L, "cinch").succeeded());
    assertFalse(new RunResult(null, null, null, false, null, "cinch").succeeded());
    assertEquals(CappedText.EMPTY, new RunResult(null, null, 0, false, 1L, "cinch").stdout());
  }
}
