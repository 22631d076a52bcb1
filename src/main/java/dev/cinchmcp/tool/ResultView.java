package dev.cinchmcp.tool;

import static dev.cinchmcp.text.CappedText.count;
import static java.util.stream.Collectors.joining;

import dev.cinchmcp.backend.ProgramInput;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.SandboxFacts;
import dev.cinchmcp.text.CappedText;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * How a run is shown: as data ({@code structuredContent}, all Claude Code passes on for a success,
 * so it carries a summary in words) and as text (all it passes on for an error: {@link ErrorText}).
 */
final class ResultView {

  /** Input files named one by one; more are counted. */
  private static final int NAMED_INPUT_FILES = 10;

  private final SandboxFacts facts;

  ResultView(SandboxFacts facts) {
    this.facts = facts;
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
    boolean failedWithPictures = files != null && !run.succeeded() && files.images > 0;
    boolean isError = !run.succeeded() && !failedWithPictures;
    Map<String, Object> structured = new LinkedHashMap<>();
    if (failedWithPictures) {
      structured.put("error", failureFirst(run, files));
    }
    structured.putAll(structured(run, input));
    String text = text(run, input);
    if (files != null) {
      text += "\n" + files.section(isError);
      structured.put("summary", structured.get("summary") + " " + files.sentence);
      structured.put("files", files.entries);
    }
    CallToolResult.Builder result =
        CallToolResult.builder()
            .addTextContent(text)
            .structuredContent(structured)
            .isError(isError);
    if (files != null) {
      files.blocks.forEach(result::addContent);
    }
    return result.build();
  }

  private String failureFirst(RunResult run, ResultFiles files) {
    return join(
        outcome(run),
        nextStep(run),
        "This result is not flagged as an error only so that the "
            + (files.images == 1 ? "picture" : files.images + " pictures")
            + " it drew reach you; the run failed.");
  }

  static CallToolResult error(String message) {
    return CallToolResult.builder().addTextContent(message).isError(true).build();
  }

  String text(RunResult run, ProgramInput input) {
    // The input line leads, and counts inside an error's window like the status line.
    String head = inputLine(input) + statusLine(run);
    if (!run.succeeded()) {
      return ErrorText.of(head, this, run);
    }
    StringBuilder sb = new StringBuilder(head).append('\n');
    sb.append(section("stdout", run.stdout())).append(section("stderr", run.stderr()));
    if (Stream.of(run.stdout(), run.stderr()).anyMatch(t -> t.truncated() || t.cleaned())) {
      sb.append('\n').append(summary(run)).append('\n');
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
    List<String> parts = new ArrayList<>();
    if (input.stdin() != null) {
      parts.add(String.format(Locale.ROOT, "stdin %,d chars", input.stdin().length()));
    }
    if (!input.files().isEmpty()) {
      String named =
          input.files().entrySet().stream()
              .limit(NAMED_INPUT_FILES)
              .map(
                  file ->
                      String.format(
                          Locale.ROOT,
                          "%s (%,d chars)",
                          ArgumentCheck.shorten(file.getKey()),
                          file.getValue().length()))
              .collect(joining(", "));
      int more = input.files().size() - NAMED_INPUT_FILES;
      parts.add(
          "files: "
              + named
              + (more > 0 ? ", and " + more + " more" : "")
              + " in "
              + ProgramInput.WORK_DIR);
    }
    if (!input.args().isEmpty()) {
      parts.add("args: " + input.args().size());
    }
    return "Input: " + String.join("; ", parts) + "\n";
  }

  Map<String, Object> structured(RunResult run, ProgramInput input) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("summary", summary(run));
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

  /** What happened, in words, for a model that reads nothing else, and what to do next. */
  String summary(RunResult run) {
    return summary(run, cut("stdout", run.stdout()), cut("stderr", run.stderr()));
  }

  /** The same with these sentences about the two streams' cuts. */
  String summary(RunResult run, String stdoutCut, String stderrCut) {
    return join(outcome(run), stdoutCut, stderrCut, cleaning(run), nextStep(run));
  }

  private static String join(String... sentences) {
    return Stream.of(sentences).filter(s -> !s.isEmpty()).collect(joining(" "));
  }

  private String outcome(RunResult run) {
    String took = run.durationMs() == null ? "" : " after " + run.durationMs() + " ms";
    if (run.timedOut()) {
      return "The program was stopped at the sandbox's "
          + facts.timeLimit()
          + " time limit (timed out); what it printed before then is shown.";
    }
    if (run.exitCode() == null) {
      return "The sandbox did not report an exit code" + took + ", so success is not certain.";
    }
    if (run.exitCode() == 0) {
      return "The program exited with code 0" + took + ".";
    }
    return "The program failed: it exited with code " + run.exitCode() + took + ".";
  }

  private static String cut(String name, CappedText text) {
    if (!text.truncated()) {
      return "";
    }
    return name
        + " was "
        + count(text.originalLength())
        + " characters long: its first "
        + count(text.head().length())
        + " and last "
        + count(text.tail().length())
        + " are shown; the marker between them counts the "
        + count(text.omittedChars())
        + " characters left out.";
  }

  private static String cleaning(RunResult run) {
    boolean out = run.stdout().cleaned();
    boolean err = run.stderr().cleaned();
    if (!out && !err) {
      return "";
    }
    return (out && err ? "stdout and stderr" : out ? "stdout" : "stderr")
        + " held control characters or terminal codes: the codes were removed, other controls are"
        + " shown as symbols (\u2400 to \u241F, a run as [\u2401 \u00D7N]) and invalid text as \uFFFD.";
  }

  private static String nextStep(RunResult run) {
    if (run.timedOut()) {
      return "Make the program do less work or finish sooner, then run it again.";
    }
    if (run.exitCode() == null) {
      return "Run it again if the result matters.";
    }
    if (run.exitCode() != 0) {
      return "Read the end of stderr (where a traceback ends), fix the code and run it again.";
    }
    if (run.stdout().truncated() || run.stderr().truncated()) {
      return "To see what was left out, print less: a summary, counts, or the part you need.";
    }
    return "";
  }
}
