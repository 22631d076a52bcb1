package dev.cinchmcp.tool;

import static dev.cinchmcp.text.CappedText.count;

import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.SandboxFacts;
import dev.cinchmcp.text.CappedText;

/** What happened in a run, in words, for a model that reads nothing else, and what to do next. */
final class RunSummary {

  private final SandboxFacts facts;

  RunSummary(SandboxFacts facts) {
    this.facts = facts;
  }

  String of(RunResult run) {
    return join(
        outcome(run),
        cut("stdout", run.stdout()),
        cut("stderr", run.stderr()),
        cleaning(run),
        nextStep(run));
  }

  static String join(String... sentences) {
    StringBuilder sb = new StringBuilder();
    for (String s : sentences) {
      if (!s.isEmpty()) {
        sb.append(sb.length() == 0 ? "" : " ").append(s);
      }
    }
    return sb.toString();
  }

  String outcome(RunResult run) {
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

  static String cut(String name, CappedText text) {
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

  static String cleaning(RunResult run) {
    boolean out = run.stdout().cleaned();
    boolean err = run.stderr().cleaned();
    if (!out && !err) {
      return "";
    }
    return (out && err ? "stdout and stderr" : out ? "stdout" : "stderr")
        + " held control characters or terminal codes: the codes were removed, other controls are"
        + " shown as symbols (\u2400 to \u241F, a run as [\u2401 \u00D7N]) and invalid text as \uFFFD.";
  }

  static String nextStep(RunResult run) {
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
