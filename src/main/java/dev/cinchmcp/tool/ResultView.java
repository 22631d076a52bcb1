package dev.cinchmcp.tool;

import dev.cinchmcp.backend.ProgramInput;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.SandboxFacts;
import dev.cinchmcp.text.CappedText;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * How a run is shown: as data ({@code structuredContent}, all Claude Code passes on for a success,
 * so it carries a summary in words) and as text (all it passes on for an error: {@link ErrorText}).
 */
final class ResultView {

  /** Input files named one by one; more are counted. */
  private static final int NAMED_INPUT_FILES = 10;

  private final SandboxFacts facts;
  private final RunSummary summary;

  ResultView(SandboxFacts facts) {
    this.facts = facts;
    this.summary = new RunSummary(facts);
  }

  CallToolResult of(RunResult run) {
    return of(run, ProgramInput.NONE);
  }

  /**
   * A failed run that drew is not flagged {@code isError}: Claude Code drops an error's pictures.
   * Its failure is said first instead, in the text and in an {@code error} field.
   */
  CallToolResult of(RunResult run, ProgramInput input) {
    ResultFiles files = ResultFiles.of(run);
    if (files == null) {
      return CallToolResult.builder()
          .addTextContent(text(run, input))
          .structuredContent(structured(run, input))
          .isError(!run.succeeded())
          .build();
    }
    boolean failedWithPictures = !run.succeeded() && files.images() > 0;
    String text = text(run, input) + "\n" + files.section(!failedWithPictures && !run.succeeded());
    Map<String, Object> structured = new LinkedHashMap<>();
    if (failedWithPictures) {
      structured.put("error", failureFirst(run, files));
    }
    structured.putAll(structured(run, input));
    structured.put("summary", structured.get("summary") + " " + files.sentence());
    structured.put("files", files.entries());
    CallToolResult.Builder result =
        CallToolResult.builder()
            .addTextContent(text)
            .structuredContent(structured)
            .isError(!run.succeeded() && !failedWithPictures);
    files.blocks().forEach(result::addContent);
    return result.build();
  }

  private String failureFirst(RunResult run, ResultFiles files) {
    return RunSummary.join(
        summary.outcome(run),
        RunSummary.nextStep(run),
        "This result is not flagged as an error only so that the "
            + (files.images() == 1 ? "picture" : files.images() + " pictures")
            + " it drew reach you; the run failed.");
  }

  static CallToolResult error(String message) {
    return CallToolResult.builder().addTextContent(message).isError(true).build();
  }

  String text(RunResult run) {
    return text(run, ProgramInput.NONE);
  }

  String text(RunResult run, ProgramInput input) {
    // The input line leads, and counts inside an error's window like the status line.
    String head = inputLine(input) + statusLine(run);
    if (!run.succeeded()) {
      return ErrorText.of(head, summary, run);
    }
    StringBuilder sb = new StringBuilder(head).append('\n');
    sb.append(section("stdout", run.stdout())).append(section("stderr", run.stderr()));
    if (run.stdout().truncated()
        || run.stderr().truncated()
        || run.stdout().cleaned()
        || run.stderr().cleaned()) {
      sb.append('\n').append(summary.of(run)).append('\n');
    }
    return sb.toString();
  }

  private String statusLine(RunResult run) {
    return "Exit code: "
        + (run.exitCode() == null ? "unknown (not reported)" : run.exitCode())
        + " | Duration: "
        + (run.durationMs() == null ? "unknown" : run.durationMs() + " ms")
        + " | Timed out: "
        + (run.timedOut()
            ? "yes (the sandbox stopped the program at its " + facts.timeLimit() + " limit)"
            : "no");
  }

  static String section(String name, CappedText text) {
    if (text.originalLength() == 0) {
      return "--- " + name + " ---\n(empty)\n";
    }
    String shown = text.text();
    return "--- " + name + " ---\n" + shown + (shown.endsWith("\n") ? "" : "\n");
  }

  /**
   * What input the program was given, with its newline, or "": {@code Input: stdin 1,204 chars;
   * files: data/input.csv (1,048,576 chars) in /tmp/work; args: 2}.
   */
  static String inputLine(ProgramInput input) {
    if (input.isEmpty()) {
      return "";
    }
    StringBuilder sb = new StringBuilder("Input:");
    String separator = " ";
    if (input.stdin() != null) {
      sb.append(separator)
          .append(String.format(Locale.ROOT, "stdin %,d chars", input.stdin().length()));
      separator = "; ";
    }
    if (!input.files().isEmpty()) {
      sb.append(separator).append("files: ");
      int shown = 0;
      for (var file : input.files().entrySet()) {
        if (shown == NAMED_INPUT_FILES) {
          sb.append(", and ").append(input.files().size() - shown).append(" more");
          break;
        }
        sb.append(shown == 0 ? "" : ", ")
            .append(ArgumentCheck.shorten(file.getKey()))
            .append(String.format(Locale.ROOT, " (%,d chars)", file.getValue().length()));
        shown++;
      }
      sb.append(" in ").append(ProgramInput.WORK_DIR);
      separator = "; ";
    }
    if (!input.args().isEmpty()) {
      sb.append(separator).append("args: ").append(input.args().size());
    }
    return sb.append('\n').toString();
  }

  Map<String, Object> structured(RunResult run) {
    return structured(run, ProgramInput.NONE);
  }

  Map<String, Object> structured(RunResult run, ProgramInput input) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("summary", summary.of(run));
    if (!input.isEmpty()) {
      // Claude Code shows the model only this part of a success: say here that the input arrived.
      m.put("input", inputLine(input).strip());
    }
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
