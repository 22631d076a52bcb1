package dev.cinchmcp.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.text.CappedText;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class OutputCleanerTest {

  private static String shown(String raw) {
    return StreamCapture.of(raw).text();
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("colour", "\u001b[1;31mred\u001b[0m", "red"),
        Arguments.of("cursor move", "a\u001b[2Kb\u001b[10;20Hc", "abc"),
        Arguments.of("window title (OSC, BEL)", "\u001b]0;title\u0007text", "text"),
        Arguments.of(
            "hyperlink (OSC, ESC backslash)",
            "\u001b]8;;http://x\u001b\\link\u001b]8;;\u001b\\",
            "link"),
        Arguments.of("charset selection", "\u001b(Btext", "text"),
        Arguments.of("two-character escape", "\u001bMup", "up"),
        Arguments.of("lone ESC at the end", "text\u001b", "text\u241b"),
        Arguments.of("ESC before a control", "a\u001b\u0001b", "a\u241b\u2401b"),
        Arguments.of("unfinished CSI", "\u001b[31", "\u241b[31"),
        Arguments.of("NUL", "a\u0000b", "a\u2400b"),
        Arguments.of("BEL", "\u0007", "\u2407"),
        Arguments.of("DEL", "\u007f", "\u2421"),
        Arguments.of("NEL (C1)", "a\u0085b", "a\uFFFDb"),
        Arguments.of("lone low surrogate", "a\uDE00b", "a\uFFFDb"),
        Arguments.of("lone high surrogate", "a\uD800b", "a\uFFFDb"),
        Arguments.of("lone high surrogate at the end", "a\uD800", "a\uFFFD"),
        Arguments.of("a pair", "\uD83D\uDE00", "\uD83D\uDE00"),
        Arguments.of("carriage return before newline", "a\r\nb", "a\r\nb"),
        Arguments.of("lone carriage return", "50%\r100%", "50%\u240d100%"),
        Arguments.of("three in a row stay as they are", "\u0001\u0001\u0001", "\u2401\u2401\u2401"),
        Arguments.of(
            "four in a row become a run", "x\u0001\u0001\u0001\u0001y", "x[\u2401 \u00D74]y"),
        Arguments.of(
            "different controls do not merge",
            "\u0001\u0002\u0001\u0002",
            "\u2401\u2402\u2401\u2402"),
        Arguments.of("plain text", "héllo wörld 日本", "héllo wörld 日本"),
        Arguments.of("U+2028 is text, not a control", "a\u2028b", "a\u2028b"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void outputIsShownCompactly(String what, String raw, String expected) {
    assertEquals(expected, shown(raw), what);
  }

  @Test
  void tabsAndNewlinesPassUnchanged() {
    CappedText c = StreamCapture.of("a\tb\nc");
    assertEquals("a\tb\nc", c.text());
    assertFalse(c.cleaned());
  }

  @Test
  void anythingReplacedMarksTheStreamCleaned() {
    assertTrue(StreamCapture.of("\u001b[0m").cleaned());
    assertTrue(StreamCapture.of("\u0001").cleaned());
  }

  @Test
  void anOverlongSequenceIsShownNotSwallowed() {
    String raw = "\u001b]" + "t".repeat(OutputCleaner.MAX_SEQUENCE + 10);
    String shown = shown(raw);
    assertTrue(shown.startsWith("\u241b]ttt"), shown);
    assertEquals(raw.length(), shown.length());
  }
}
