package dev.cinchmcp.tool;

import static dev.cinchmcp.backend.CappedText.count;

import dev.cinchmcp.backend.CappedText;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.SandboxFacts;

/**
 * What happened in a run, in words, for a model that reads nothing else: Claude Code gives the
 * model only the structured content of a success, and only the text of an error. It says the
 * outcome, what was cut or cleaned in each stream, and what to do next.
 */
final class RunSummary {

  private final SandboxFacts facts;

  RunSummary(SandboxFacts facts) {
    this.facts = facts;
  }

  String of(RunResult run) {
    StringBuilder sb = new StringBuilder(outcome(run));
    stream(sb, "stdout", run.stdout());
    stream(sb, "stderr", run.stderr());
    String next = nextStep(run);
    if (!next.isEmpty()) {
      sb.append(' ').append(next);
    }
    return sb.toString();
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

  private static void stream(StringBuilder sb, String name, CappedText text) {
    if (text.truncated()) {
      sb.append(' ')
          .append(name)
          .append(" was ")
          .append(count(text.originalLength()))
          .append(" characters long: its first ")
          .append(count(text.head().length()))
          .append(" and last ")
          .append(count(text.tail().length()))
          .append(" are shown; the marker between them counts the ")
          .append(count(text.omittedChars()))
          .append(" characters left out.");
    }
    if (text.cleaned()) {
      sb.append(' ')
          .append(name)
          .append(" held control characters or terminal codes: codes were removed, other controls")
          .append(" are shown as symbols (\u2400 to \u241F, \uFFFD).");
    }
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
