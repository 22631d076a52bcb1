package dev.cinchmcp.backend.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.StreamCapture;
import dev.cinchmcp.text.CappedText;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The local backend's stream capture, fed bytes as a sandbox's pipe would deliver them. */
class SandboxDrainTest {

  private static StreamCapture read(byte[] bytes) {
    StreamCapture stream = new StreamCapture();
    Sandbox.drain(new ByteArrayInputStream(bytes), stream);
    return stream;
  }

  @Test
  void aFloodKeepsItsStartAndItsEnd() {
    String out = "first line\n" + "x".repeat(100_000) + "\nTraceback: the end\n";
    CappedText text = read(out.getBytes(StandardCharsets.UTF_8)).result(null);

    assertTrue(text.head().startsWith("first line\n"));
    assertTrue(text.tail().endsWith("\nTraceback: the end\n"));
    assertEquals(out.length(), text.originalLength());
    assertEquals(out.length() - text.head().length() - text.tail().length(), text.omittedChars());
  }

  @Test
  void invalidUtf8IsShownAsTheReplacementCharacter() {
    CappedText text = read(new byte[] {'a', (byte) 0xFF, 'b'}).result(null);
    assertEquals("a\uFFFDb", text.text());
  }

  @Test
  void controlBytesAreShownCompactly() {
    CappedText text =
        read("\u001b[31mred\u001b[0m\u0000".getBytes(StandardCharsets.UTF_8)).result(null);
    assertEquals("red\u2400", text.text());
    assertTrue(text.cleaned());
  }

  @Test
  void theSandboxNoteEndsTheStreamOnALineOfItsOwnAndCounts() {
    StreamCapture reader = read("partial".getBytes(StandardCharsets.UTF_8));
    CappedText text = reader.result("[sandbox] killed: out of memory");

    assertEquals("partial\n[sandbox] killed: out of memory\n", text.text());
    assertEquals(text.text().length(), text.originalLength());
  }

  @Test
  void theNoteIsShownEvenAfterAFlood() {
    StreamCapture reader = read("y".repeat(50_000).getBytes(StandardCharsets.UTF_8));
    CappedText text = reader.result("[sandbox] killed: too many processes");

    assertTrue(text.tail().endsWith("y\n[sandbox] killed: too many processes\n"), text.tail());
    assertEquals(50_000 + 38, text.originalLength());
  }
}
