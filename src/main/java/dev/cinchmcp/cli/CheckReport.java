package dev.cinchmcp.cli;

import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.cinch.Redactor;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The report {@code --check} prints: one labelled line per question a person asks (configuration,
 * API reachable, key, credits, speed), then a verdict that says what to do. It should never see the
 * key, yet every line is masked once more as it is added (a path nobody thought of).
 */
final class CheckReport {

  private static final String NOT_CHECKED = "not checked";
  private static final String INDENT = "                 ";

  private final Redactor redactor;
  private final List<String> lines = new ArrayList<>();
  private String verdict = "";
  private boolean ok;

  CheckReport(String version, Redactor redactor) {
    this.redactor = redactor;
    lines.add("cinch-mcp " + version + " self-check");
  }

  /** The configuration cannot be used: nothing was sent, and the problems say how to fix it. */
  CheckReport misconfigured(List<String> problems) {
    row("Configuration", "NOT OK");
    problems.forEach(p -> wrap("- " + p));
    answers(NOT_CHECKED, NOT_CHECKED, NOT_CHECKED);
    return fail("the configuration must be fixed first (see above); nothing was sent to the API.");
  }

  CheckReport configured(String description, String packages) {
    row("Configuration", "OK (" + description + ")");
    row("Packages", packages);
    return this;
  }

  /** At the API every question has a good answer; locally what the program did decides. */
  CheckReport ran(String backend, RunResult result, long millis, String expectedStdout) {
    boolean local = backend.equals("local");
    if (!local && !backend.equals("docker")) {
      answers("yes", "accepted", "available (the test run was accepted)");
      row("Round trip", millis + " ms");
      // The API took the call, so the tool will work, even if the sandbox did something odd.
      noteIfUnexpected(result, expectedStdout);
      return passed("OK: execute_code calls will work.");
    }
    row(
        "Sandbox",
        local
            ? "ran the test program in a fresh gVisor sandbox"
            : "ran the test program in a fresh container of the engine");
    row("Run time", millis + (local ? " ms" : " ms (the first run of an image includes its pull)"));
    if (noteIfUnexpected(result, expectedStdout)) {
      return fail(
          (local
                  ? "the local sandbox started but did not run"
                  : "the engine started a container but it did not run")
              + " the test program correctly (see above).");
    }
    return passed(
        local
            ? "OK: execute_code calls will work, in a local gVisor sandbox."
            : "OK: execute_code calls will work, in containers of the engine named above.");
  }

  /** Adds a note when the test program did not print what it should or exit 0; says whether. */
  private boolean noteIfUnexpected(RunResult result, String expectedStdout) {
    String printed = result.stdout().text().strip();
    if (result.succeeded() && printed.equals(expectedStdout)) {
      return false;
    }
    wrap(
        "Note: the test program printed \"%s\" with exit code %d%s; expected \"%s\" and exit code 0."
            .formatted(
                shorten(printed),
                result.exitCode(),
                result.timedOut() ? " and timed out" : "",
                expectedStdout));
    return true;
  }

  /** The API call failed: which questions it answers, and what to do, depend on the kind. */
  CheckReport failed(RunFailure failure, long millis, long timeoutMillis) {
    switch (failure.kind()) {
      case UNREACHABLE -> answers("NO", NOT_CHECKED, NOT_CHECKED);
      case TIMEOUT ->
          answers("no answer within " + timeoutMillis + " ms", NOT_CHECKED, NOT_CHECKED);
      case KEY_REFUSED -> answers("yes", "REFUSED", NOT_CHECKED);
      case CREDITS_EXHAUSTED -> answers("yes", "accepted", "EXHAUSTED");
      case RATE_LIMITED -> answers("yes", "not refused", "not checked (rate limited first)");
      case SERVER_ERROR -> answers("yes, but it is failing", NOT_CHECKED, NOT_CHECKED);
      case REQUEST_REFUSED -> answers("yes", "not refused", NOT_CHECKED);
      case UNEXPECTED_ANSWER ->
          answers("something answered, but not like the Cinch API", NOT_CHECKED, NOT_CHECKED);
      case MISCONFIGURED, SANDBOX_UNAVAILABLE, INPUT_NOT_DELIVERED ->
          answers(NOT_CHECKED, NOT_CHECKED, NOT_CHECKED);
    }
    row("Round trip", millis + " ms, failed");
    wrap("Detail: " + failure.getMessage());
    return fail(advice(failure.kind()));
  }

  /** The check itself was interrupted or the runner did not finish: say so rather than guess. */
  CheckReport unfinished(String why) {
    answers(NOT_CHECKED, NOT_CHECKED, NOT_CHECKED);
    return fail(why);
  }

  boolean ok() {
    return ok;
  }

  void print(PrintStream out) {
    lines.forEach(out::println);
    out.println();
    out.println(verdict);
  }

  private static String advice(RunFailure.Kind kind) {
    return switch (kind) {
      case UNREACHABLE ->
          "the API cannot be reached. Check the network (a proxy or firewall?) and CINCH_BASE_URL.";
      case TIMEOUT ->
          "the API did not answer in time. Check the network and CINCH_BASE_URL, or raise CINCH_TIMEOUT_MS.";
      case KEY_REFUSED ->
          "the API refused the key. Copy a valid key from your Cinch account into CINCH_API_KEY.";
      case CREDITS_EXHAUSTED ->
          "the Cinch account is out of credits. Add credits to it; nothing else will help.";
      case RATE_LIMITED ->
          "the API is rate limiting this key. Wait a minute and run --check again.";
      case SERVER_ERROR -> "the Cinch API is failing on its side. Try again later.";
      case REQUEST_REFUSED ->
          "the API refused the test program, which should not happen. Please report it.";
      case UNEXPECTED_ANSWER -> "the answer did not come from the Cinch API. Check CINCH_BASE_URL.";
      case MISCONFIGURED, SANDBOX_UNAVAILABLE, INPUT_NOT_DELIVERED ->
          "the server cannot run code (see the detail above).";
    };
  }

  private void answers(String reachable, String key, String credits) {
    row("API reachable", reachable);
    row("API key", key);
    row("Credits", credits);
  }

  private CheckReport passed(String why) {
    ok = true;
    verdict = why;
    return this;
  }

  private CheckReport fail(String why) {
    ok = false;
    verdict = "FAILED: " + redactor.redact(why);
    return this;
  }

  private void row(String label, String value) {
    lines.add("  " + String.format("%-15s", label) + redactor.redact(value));
  }

  /** Adds a long sentence under the table, masked whole, then broken at spaces. */
  private void wrap(String text) {
    lines.add(HelpText.wrap(INDENT, redactor.redact(text)));
  }

  private static String shorten(String text) {
    String oneLine = text.replaceAll("\\s+", " ");
    return oneLine.length() > 60 ? oneLine.substring(0, 60) + "..." : oneLine;
  }
}
