package dev.cinchmcp.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.StreamCapture;
import org.junit.jupiter.api.Test;

class CappedTextTest {

  @Test
  void theLimitsLeaveRoomForTheLongestMarker() {
    // A petabyte of output, all line breaks: more than any run can print.
    long most = 999_999_999_999_999L;
    CappedText worst = new CappedText("a", "b", most, most, most, true);
    assertTrue(
        worst.marker().length() <= CappedText.LIMIT - CappedText.HEAD - CappedText.TAIL,
        worst.marker().length() + ": " + worst.marker());
    assertTrue(
        WireCost.of(worst.marker())
            <= CappedText.LIMIT_BYTES - CappedText.HEAD_BYTES - CappedText.TAIL_BYTES);
  }

  @Test
  void aCutStreamShowsHeadMarkerAndTail() {
    CappedText cut = new CappedText("start\n", "end\n", 1_000_000, 999_990, 40_000, false);

    assertEquals(
        "start\n[... 999,990 characters (40,000 line breaks) left out here ...]\nend\n",
        cut.text());
    assertTrue(cut.truncated());
  }

  @Test
  void theMarkerGoesOnALineOfItsOwnAndSaysWhenNoLineWasCut() {
    CappedText cut = new CappedText("xx", "yy", 10, 6, 0, false);

    assertEquals("xx\n[... 6 characters (no line break) left out here ...]\nyy", cut.text());
    assertEquals(
        "[... 6 characters (1 line break) left out here ...]\n",
        new CappedText("", "y", 10, 6, 1, false).marker());
  }

  @Test
  void aWholeStreamIsItsHeadWithNoMarker() {
    CappedText whole = StreamCapture.of("hello");
    assertEquals("hello", whole.text());
    assertEquals("", whole.marker());
    assertFalse(whole.truncated());
    assertEquals(5, whole.originalLength());
  }

  @Test
  void ofNullIsEmpty() {
    assertSame(CappedText.EMPTY, StreamCapture.of(null));
    assertEquals("", CappedText.EMPTY.text());
  }

  @Test
  void nullPartsAreEmpty() {
    assertEquals("", new CappedText(null, null, 0, 0, 0, false).text());
  }

  @Test
  void impossibleCountsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> new CappedText("a", "", 2, 3, 0, false));
    assertThrows(IllegalArgumentException.class, () -> new CappedText("a", "b", 2, 0, 0, false));
    assertThrows(IllegalArgumentException.class, () -> new CappedText("a", "", -1, 0, 0, false));
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
