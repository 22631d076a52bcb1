package dev.cinchmcp.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.ProgramInput;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.SandboxFacts;
import dev.cinchmcp.backend.StreamCapture;
import dev.cinchmcp.text.CappedText;
import dev.cinchmcp.text.WireCost;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The rules behind the golden files (ResultViewGoldenTest), checked over many sizes. */
class ResultViewTest {

  private static final ResultView VIEW = new ResultView(SandboxFacts.SERVICE);
  private static final String TRACEBACK_END = "ValueError: the line that matters\n";

  private static RunResult run(String stdout, String stderr, Integer exit, boolean timedOut) {
    return new RunResult(
        StreamCapture.of(stdout), StreamCapture.of(stderr), exit, timedOut, 287L, "cinch");
  }

  private static String text(CallToolResult result) {
    assertEquals(1, result.content().size());
    return ((TextContent) result.content().get(0)).text();
  }

  private static Map<?, ?> structured(CallToolResult result) {
    return (Map<?, ?>) result.structuredContent();
  }

  static Stream<Arguments> failingSizes() {
    List<Integer> sizes = List.of(0, 100, 5_000, 9_000, 12_000, 20_000, 30_000, 200_000);
    return sizes.stream().flatMap(out -> sizes.stream().map(err -> Arguments.of(out, err)));
  }

  @ParameterizedTest(name = "stdout {0}, stderr {1}")
  @MethodSource("failingSizes")
  void anErrorTextFitsTheErrorWindowAndKeepsTheEndOfStderr(int out, int err) {
    String stderr = err == 0 ? "" : "w".repeat(err) + "\n" + TRACEBACK_END;
    CallToolResult r =
        VIEW.of(run("o".repeat(out) + (out == 0 ? "" : "\nlast stdout line\n"), stderr, 1, false));

    String t = text(r);
    assertTrue(r.isError());
    assertTrue(t.length() <= ErrorText.LIMIT, t.length() + " characters");
    assertTrue(WireCost.of(t) <= ErrorText.LIMIT_BYTES);
    assertTrue(t.startsWith("Exit code: 1 | "), t.substring(0, 50));
    assertTrue(t.contains("--- stdout ---\n"));
    assertTrue(t.contains("--- stderr ---\n"));
    assertTrue(t.contains("fix the code and run it again"));
    if (err > 0) {
      assertTrue(t.endsWith(TRACEBACK_END), "the end of stderr is shown");
    }
    if (out > 0) {
      assertTrue(t.contains("last stdout line\n--- stderr ---"), "the end of stdout is shown");
    }
    long shownOut = out == 0 ? 0 : out + "\nlast stdout line\n".length();
    if (shownOut > 0 && !t.contains("o".repeat(out))) {
      assertTrue(t.contains("left out here"), "a cut says so");
    }
  }

  @Test
  void anErrorTextCountsEverythingItLeavesOut() {
    // 30,000 characters with no line break: the capture keeps 19,900; the text shows fewer still.
    CallToolResult r = VIEW.of(run("", "e".repeat(30_000), 1, false));

    String t = text(r);
    String lastLine = t.substring(t.lastIndexOf("]\n") + 2, t.length() - 1);
    int shown = lastLine.length();
    assertTrue(lastLine.equals("e".repeat(shown)), "the last line is the end of stderr");
    assertTrue(
        t.contains(
            "[... "
                + CappedText.count(30_000 - shown)
                + " characters (no line break) left out here ...]"),
        t.substring(0, 600));
  }

  @Test
  void aCostlyErrorTextStaysWithinItsBytes() {
    CallToolResult r =
        VIEW.of(run("\u6f22".repeat(30_000), "\uD83D\uDE00".repeat(30_000), 1, false));

    String t = text(r);
    assertTrue(WireCost.of(t) <= ErrorText.LIMIT_BYTES, WireCost.of(t) + " bytes");
    assertFalse(
        Character.isHighSurrogate(t.charAt(t.length() - 2))
            && !Character.isLowSurrogate(t.charAt(t.length() - 1)));
  }

  @Test
  void aSuccessKeepsTheFullViewAndSaysNothingMoreWhenNothingHappened() {
    CallToolResult r = VIEW.of(run("4\n", "note\n", 0, false));

    assertFalse(r.isError());
    assertEquals(
        "Exit code: 0 | Duration: 287 ms | Timed out: no\n--- stdout ---\n4\n--- stderr ---\nnote\n",
        text(r));
  }

  @Test
  void theSummaryAloneTellsWhatHappenedAndWhatToDo() {
    assertEquals(
        "The program exited with code 0 after 287 ms.",
        structured(VIEW.of(run("4\n", "", 0, false))).get("summary"));
    String failed = (String) structured(VIEW.of(run("", "Traceback", 2, false))).get("summary");
    assertTrue(failed.startsWith("The program failed: it exited with code 2"), failed);
    assertTrue(failed.contains("Read the end of stderr"), failed);
    String timedOut = (String) structured(VIEW.of(run("partial", "", null, true))).get("summary");
    assertTrue(timedOut.contains("10 s time limit"), timedOut);
    String cut = (String) structured(VIEW.of(run("x".repeat(50_000), "", 0, false))).get("summary");
    assertTrue(
        cut.contains("stdout was 50,000 characters long: its first 7,900 and last 12,000"), cut);
    assertTrue(cut.contains("print less"), cut);
  }

  @Test
  void aRunWithNoExitCodeIsAnErrorAndSaysSo() {
    CallToolResult r =
        VIEW.of(new RunResult(StreamCapture.of("4"), null, null, false, null, "cinch"));

    assertTrue(r.isError());
    assertTrue(text(r).startsWith("Exit code: unknown (not reported) | Duration: unknown"));
    assertTrue(text(r).contains("did not report an exit code"));
    assertTrue(structured(r).containsKey("exitCode"));
    assertEquals(null, structured(r).get("exitCode"));
  }

  @Test
  void structuredContentCarriesEveryFieldTheOutputSchemaRequires() {
    Map<String, Object> s = VIEW.structured(run("4\n", "", 0, false), ProgramInput.NONE);

    // In the schema's order, which is the order a client sees them in.
    assertEquals(ToolSchemas.output().get("required"), List.copyOf(s.keySet()));
    assertEquals("4\n", s.get("stdout"));
    assertEquals(2L, s.get("stdoutLength"));
    assertEquals(false, s.get("stdoutTruncated"));
  }

  @Test
  void aCutStreamCarriesItsMarkerInStructuredContentToo() {
    Map<String, Object> s =
        VIEW.structured(run("x".repeat(30_000), "", 0, false), ProgramInput.NONE);

    assertTrue(
        ((String) s.get("stdout"))
            .contains("[... 10,100 characters (no line break) left out here ...]"));
    assertEquals(true, s.get("stdoutTruncated"));
    assertEquals(30_000L, s.get("stdoutLength"));
  }

  @Test
  void failureIsAnErrorWithTheMessageAlone() {
    CallToolResult r = ResultView.error("The Cinch account is out of credits.");

    assertTrue(r.isError());
    assertEquals("The Cinch account is out of credits.", text(r));
    assertEquals(null, r.structuredContent());
  }
}
