package dev.cinchmcp.tool;

import dev.cinchmcp.backend.CappedText;
import dev.cinchmcp.backend.ProgramInput;
import dev.cinchmcp.backend.RunResult;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How a run is shown to the model: a text block to read at a glance, and the same facts as data.
 */
final class ResultView {

  private ResultView() {}

  static CallToolResult of(RunResult run) {
    return of(run, ProgramInput.NONE);
  }

  /** A run, with a first line saying what input it was given (none: no line). */
  static CallToolResult of(RunResult run, ProgramInput input) {
    return CallToolResult.builder()
        .addTextContent(InputSummary.line(input) + text(run))
        .structuredContent(structured(run))
        .isError(!run.succeeded())
        .build();
  }

  /** A failure with no run behind it: the message alone. */
  static CallToolResult error(String message) {
    return CallToolResult.builder().addTextContent(message).isError(true).build();
  }

  static String text(RunResult run) {
    StringBuilder sb =
        new StringBuilder(run.stdout().text().length() + run.stderr().text().length() + 256);
    sb.append("Exit code: ")
        .append(run.exitCode() == null ? "unknown (not reported)" : run.exitCode());
    sb.append(" | Duration: ")
        .append(run.durationMs() == null ? "unknown" : run.durationMs() + " ms");
    sb.append(" | Timed out: ")
        .append(run.timedOut() ? "yes (the sandbox stopped the program at its 10 s limit)" : "no");
    sb.append('\n');
    stream(sb, "stdout", run.stdout());
    stream(sb, "stderr", run.stderr());
    if (run.timedOut()) {
      sb.append(
          "\nThe program ran out of time. Make it do less work or finish sooner; output printed before the"
              + " limit is shown above.");
    } else if (run.exitCode() == null) {
      sb.append("\nThe sandbox did not report an exit code, so success is not certain.");
    } else if (run.exitCode() != 0) {
      sb.append(
          "\nThe program failed (non-zero exit). Read stderr above, fix the code and run it again.");
    }
    return sb.toString();
  }

  private static void stream(StringBuilder sb, String name, CappedText text) {
    sb.append("--- ").append(name).append(" ---\n");
    if (text.originalLength() == 0) {
      sb.append("(empty)\n");
      return;
    }
    sb.append(text.text());
    if (!text.text().endsWith("\n")) {
      sb.append('\n');
    }
    if (text.truncated()) {
      sb.append(
          String.format(
              java.util.Locale.ROOT,
              "[%s cut: showing the first %,d of %,d characters; %,d more were not shown."
                  + " Print less, or print a summary.]%n",
              name,
              text.text().length(),
              text.originalLength(),
              text.cutCount()));
    }
  }

  static Map<String, Object> structured(RunResult run) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("stdout", run.stdout().text());
    m.put("stderr", run.stderr().text());
    m.put("exitCode", run.exitCode());
    m.put("timedOut", run.timedOut());
    m.put("durationMs", run.durationMs());
    m.put("stdoutTruncated", run.stdout().truncated());
    m.put("stderrTruncated", run.stderr().truncated());
    m.put("stdoutLength", run.stdout().originalLength());
    m.put("stderrLength", run.stderr().originalLength());
    m.put("backend", run.backend());
    return m;
  }
}
