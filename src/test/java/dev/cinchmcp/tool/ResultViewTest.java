package dev.cinchmcp.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.CappedText;
import dev.cinchmcp.backend.RunResult;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResultViewTest {

  private static RunResult run(String stdout, String stderr, Integer exit, boolean timedOut) {
    return new RunResult(
        CappedText.of(stdout), CappedText.of(stderr), exit, timedOut, 287L, "cinch");
  }

  private static String text(CallToolResult result) {
    assertEquals(1, result.content().size());
    return ((TextContent) result.content().get(0)).text();
  }

  @Test
  void successIsNotAnErrorAndShowsBothStreams() {
    CallToolResult r = ResultView.of(run("4\n", "note\n", 0, false));

    assertFalse(r.isError());
    String t = text(r);
    assertTrue(t.startsWith("Exit code: 0 | Duration: 287 ms | Timed out: no\n"), t);
    assertTrue(t.contains("--- stdout ---\n4\n--- stderr ---\nnote\n"), t);
  }

  @Test
  void emptyStreamsAreShownAsEmpty() {
    String t = text(ResultView.of(run("", "", 0, false)));

    assertTrue(t.contains("--- stdout ---\n(empty)\n--- stderr ---\n(empty)\n"), t);
  }

  @Test
  void outputWithoutAFinalNewlineGetsOne() {
    String t = text(ResultView.of(run("4", "", 0, false)));
    assertTrue(t.contains("--- stdout ---\n4\n--- stderr ---"), t);
  }

  @Test
  void nonZeroExitIsAnErrorThatPointsAtStderr() {
    CallToolResult r = ResultView.of(run("", "Traceback", 1, false));

    assertTrue(r.isError());
    assertTrue(text(r).contains("non-zero exit"), text(r));
    assertEquals(1, ((Map<?, ?>) r.structuredContent()).get("exitCode"));
  }

  @Test
  void timeoutIsAnErrorEvenWithExitZero() {
    CallToolResult r = ResultView.of(run("partial", "", 0, true));

    assertTrue(r.isError());
    assertTrue(text(r).contains("Timed out: yes"), text(r));
    assertTrue(text(r).contains("ran out of time"), text(r));
  }

  @Test
  void missingExitCodeIsAnErrorAndSaysSo() {
    CallToolResult r =
        ResultView.of(new RunResult(CappedText.of("4"), null, null, false, null, "cinch"));

    assertTrue(r.isError());
    String t = text(r);
    assertTrue(t.startsWith("Exit code: unknown (not reported) | Duration: unknown"), t);
    assertTrue(t.contains("did not report an exit code"), t);
    Map<?, ?> structured = (Map<?, ?>) r.structuredContent();
    assertTrue(structured.containsKey("exitCode"));
    assertEquals(null, structured.get("exitCode"));
  }

  @Test
  void truncatedStreamSaysHowManyCharactersWereCut() {
    String out = "x".repeat(20_001);
    CallToolResult r = ResultView.of(run(out, "", 0, false));

    String t = text(r);
    assertTrue(
        t.contains(
            "[stdout cut: showing the first 20,000 of 20,001 characters; 1 more were not shown."),
        t);
    Map<?, ?> s = (Map<?, ?>) r.structuredContent();
    assertEquals(true, s.get("stdoutTruncated"));
    assertEquals(20_001L, s.get("stdoutLength"));
    assertEquals(false, s.get("stderrTruncated"));
    assertEquals(20_000, ((String) s.get("stdout")).length());
  }

  @Test
  void truncatedStderrOfAStreamedMillionIsReported() {
    CallToolResult r =
        ResultView.of(
            new RunResult(
                null, new CappedText("e".repeat(20_000), 1_000_000), 1, false, 5L, "cinch"));

    assertTrue(
        text(r)
            .contains(
                "[stderr cut: showing the first 20,000 of 1,000,000 characters; 980,000 more were not shown."),
        text(r));
  }

  @Test
  void untruncatedStreamHasNoCutNote() {
    assertFalse(text(ResultView.of(run("x".repeat(20_000), "", 0, false))).contains("cut:"));
  }

  @Test
  void structuredContentCarriesEveryField() {
    Map<String, Object> s = ResultView.structured(run("4\n", "", 0, false));

    assertEquals(
        Map.of(
            "stdout",
            "4\n",
            "stderr",
            "",
            "exitCode",
            0,
            "timedOut",
            false,
            "durationMs",
            287L,
            "stdoutTruncated",
            false,
            "stderrTruncated",
            false,
            "stdoutLength",
            2L,
            "stderrLength",
            0L,
            "backend",
            "cinch"),
        s);
  }

  @Test
  void failureIsAnErrorWithTheMessageAlone() {
    CallToolResult r = ResultView.error("The Cinch account is out of credits.");

    assertTrue(r.isError());
    assertEquals("The Cinch account is out of credits.", text(r));
    assertEquals(null, r.structuredContent());
  }
}
