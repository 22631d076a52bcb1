package dev.cinchmcp.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OutputCleanerTest {

  private static String shown(String raw) {
    return CappedText.of(raw).text();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "colour | \u001b[1;31mred\u001b[0m | red",
        "cursor move | a\u001b[2Kb\u001b[10;20Hc | abc",
        "window title (OSC, BEL) | \u001b]0;title\u0007text | text",
        "hyperlink (OSC, ESC backslash) | \u001b]8;;http://x\u001b\\link\u001b]8;;\u001b\\ | link",
        "charset selection | \u001b(Btext | text",
        "two-character escape | \u001bMup | up",
        "lone ESC at the end | text\u001b | text\u241b",
        "ESC before a control | a\u001b\u0001b | a\u241b\u2401b",
        "unfinished CSI | \u001b[31 | \u241b[31",
        "NUL | a\u0000b | a\u2400b",
        "BEL | \u0007 | \u2407",
        "DEL | \u007f | \u2421",
        "NEL (C1) | a\u0085b | a\uFFFDb",
        "lone low surrogate | a\uDE00b | a\uFFFDb",
        "lone high surrogate | a\uD800b | a\uFFFDb",
        "lone high surrogate at the end | a\uD800 | a\uFFFD",
        "a pair | \uD83D\uDE00 | \uD83D\uDE00",
        "carriage return before newline | a\r\nb | a\r\nb",
        "lone carriage return | 50%\r100% | 50%\u240d100%",
        "three in a row stay as they are | \u0001\u0001\u0001 | \u2401\u2401\u2401",
        "four in a row become a run | x\u0001\u0001\u0001\u0001y | x[\u2401 \u00D74]y",
        "different controls do not merge | \u0001\u0002\u0001\u0002 | \u2401\u2402\u2401\u2402",
        "plain text | héllo wörld 日本 | héllo wörld 日本",
        "U+2028 is text, not a control | a\u2028b | a\u2028b",
      })
  void outputIsShownCompactly(String what, String raw, String expected) {
    assertEquals(expected, shown(raw), what);
  }

  @Test
  void tabsAndNewlinesPassUnchanged() {
    CappedText c = CappedText.of("a\tb\nc");
    assertEquals("a\tb\nc", c.text());
    assertFalse(c.cleaned());
  }

  @Test
  void anythingReplacedMarksTheStreamCleaned() {
    assertTrue(CappedText.of("\u001b[0m").cleaned());
    assertTrue(CappedText.of("\u0001").cleaned());
  }

  @Test
  void anOverlongSequenceIsShownNotSwallowed() {
    String raw = "\u001b]" + "t".repeat(OutputCleaner.MAX_SEQUENCE + 10);
    String shown = shown(raw);
    assertTrue(shown.startsWith("\u241b]ttt"), shown);
    assertEquals(raw.length(), shown.length());
  }
}
