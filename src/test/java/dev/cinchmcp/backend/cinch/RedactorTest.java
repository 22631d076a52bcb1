package dev.cinchmcp.backend.cinch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.cinchmcp.backend.StreamCapture;
import dev.cinchmcp.backend.WrittenFiles;
import dev.cinchmcp.testkit.FakeCinchApi;
import dev.cinchmcp.testkit.KeyEchoes;
import dev.cinchmcp.text.CappedText;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RedactorTest {

  private static final String KEY = FakeCinchApi.KEY;
  private final Redactor redactor = new Redactor(KEY);

  @Test
  void everyCopyOfTheKeyIsMasked() {
    assertEquals("a [REDACTED] b [REDACTED]", redactor.redact("a " + KEY + " b " + KEY));
  }

  @Test
  void theKeyIsMaskedInTheNamesAndTextsOfWrittenFiles() {
    byte[] text = ("key=" + KEY + "\n").getBytes(StandardCharsets.UTF_8);
    WrittenFiles files =
        new WrittenFiles(
            WrittenFiles.State.COMPLETE,
            List.of(
                new WrittenFiles.WrittenFile(
                    KEY + ".txt", text.length, WrittenFiles.Kind.TEXT, text)),
            0,
            0,
            null);
    WrittenFiles.WrittenFile safe = redactor.files(files).files().get(0);
    assertEquals("[REDACTED].txt", safe.name());
    assertEquals("key=[REDACTED]\n", new String(safe.data(), StandardCharsets.UTF_8));
    assertEquals(safe.data().length, safe.size());
  }

  /** Text without the key is handed back as it is, escapes and encodings included. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"nothing secret", "path a\\/b \\u0041 %41 &#65; QUJD"})
  void textWithoutTheKeyIsUnchanged(String text) {
    assertSame(text, redactor.redact(text));
  }

  @Test
  void noKeyRedactsNothing() {
    assertEquals("x " + KEY, new Redactor(null).redact("x " + KEY));
    assertEquals("x " + KEY, new Redactor("").redact("x " + KEY));
  }

  @Test
  void aHeadEndingInTheKeysStartHasItMasked() {
    CappedText cut = new CappedText("out: " + KEY.substring(0, 12), "tail", 100, 80, 3, false);
    CappedText safe = redactor.cappedSafe(cut);
    assertEquals("out: [REDACTED]", safe.head());
    assertEquals("tail", safe.tail());
    assertEquals(100, safe.originalLength());
    assertEquals(80, safe.omittedChars());
    assertEquals(3, safe.omittedLines());
  }

  @Test
  void aTailStartingWithTheKeysEndHasItMasked() {
    CappedText cut = new CappedText("head", KEY.substring(9) + " more", 100, 80, 0, false);
    assertEquals("[REDACTED] more", redactor.cappedSafe(cut).tail());
  }

  @Test
  void wholeCopiesInBothPartsAreMasked() {
    CappedText cut = new CappedText("a " + KEY, KEY + " b", 200, 100, 0, false);
    CappedText safe = redactor.cappedSafe(cut);
    assertEquals("a [REDACTED]", safe.head());
    assertEquals("[REDACTED] b", safe.tail());
  }

  @Test
  void anUncutStreamEndingInTheKeysStartIsLeftAlone() {
    // Not cut: the text really ends there, so it is not a key cut in two.
    CappedText whole = StreamCapture.of("cinch_live_");
    assertSame(whole, redactor.cappedSafe(whole));
  }

  @Test
  void aShortTrailingPieceIsNotTakenForTheKey() {
    assertEquals("the word cinch", redactor.redactCut("the word cinch"));
  }

  @Test
  void redactCutMasksATrailingStartAndWholeCopies() {
    assertEquals(
        "[REDACTED] then [REDACTED]",
        redactor.redactCut(KEY + " then " + KEY.substring(0, KEY.length() - 1)));
  }

  @Test
  void everyEncodingOfTheKeyIsMaskedWhereverItStands() {
    List<String> echoes = KeyEchoes.of(KEY);
    for (int i = 0; i < echoes.size(); i++) {
      String echo = echoes.get(i);
      for (String text : java.util.List.of(echo, "said: " + echo + " (end)", "x" + echo + "y")) {
        String safe = redactor.redact(text);
        KeyEchoes.assertNoKey(KEY, safe);
        org.junit.jupiter.api.Assertions.assertTrue(
            safe.contains(Redactor.MASK), "encoding #" + i + " was not masked");
      }
    }
  }

  @Test
  void aCutEncodedKeyLeavesNoRecognisableStart() {
    String escaped = KEY.replace("_", "\\u005f");
    for (int kept = "cinch\\u005f".length(); kept < escaped.length(); kept++) {
      String safe = redactor.redactCut("out: " + escaped.substring(0, kept));
      org.junit.jupiter.api.Assertions.assertEquals("out: [REDACTED]", safe, "kept " + kept);
    }
  }
}
