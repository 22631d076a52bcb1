package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.SandboxEnding;
import dev.cinchmcp.backend.SandboxOutput;
import dev.cinchmcp.backend.StreamCapture;
import java.io.IOException;
import java.nio.file.Files;

/** What a sandbox's exit status means (the program's, a limit's kill, no start); the failures. */
final class SandboxExit {

  /** runsc's own exit status for "could not run the container" (util.Fatalf). */
  private static final int RUNSC_FATAL = 128;

  private SandboxExit() {}

  static RunResult result(
      int exitCode,
      SandboxOutput output,
      RunCgroup cgroup,
      Bundle bundle,
      LocalSandboxSettings settings,
      long durationMs) {
    failIfNotStarted(exitCode, output.stderr(null).text(), cgroup, bundle);
    String note = null; // with a note, KILLED: gVisor's own status after an OOM kill is arbitrary
    if (cgroup != null && cgroup.memoryExceeded()) {
      note = settings.memoryNote();
    } else if (cgroup != null && cgroup.processLimitHit()) {
      note =
          "[sandbox] killed: the program started more than "
              + settings.maxProcesses()
              + " processes or threads";
    }
    int status = note == null ? exitCode : SandboxEnding.KILLED;
    return SandboxEnding.exited(output, status, note, durationMs, LocalSandboxRunner.NAME);
  }

  private static void failIfNotStarted(
      int exitCode, String stderr, RunCgroup cgroup, Bundle bundle) {
    if (exitCode == RunCgroup.JOIN_FAILED && cgroup != null && !Files.exists(bundle.logFile())) {
      String line = stderr.strip().lines().findFirst().orElse("no detail");
      throw failure(
          RunFailure.Reason.SANDBOX_NOT_STARTED,
          "The local sandbox could not be placed in its cgroup (memory/pids/cpu limits): "
              + (line.length() > 300 ? line.substring(0, 300) + "..." : line)
              + ". Nothing was run",
          "Try again");
    }
    String error = exitCode == RUNSC_FATAL ? bundle.runscError() : null;
    if (error != null) {
      throw failure(
          RunFailure.Reason.SANDBOX_UNAVAILABLE,
          "gVisor (runsc) could not start the sandbox: " + error,
          "Check the runsc installation (runsc --version)");
    }
  }

  record Streams(StreamCapture out, StreamCapture err) implements SandboxOutput {}

  static RunFailure runscNotStarted(Runsc runsc, IOException e) {
    return failure(
        RunFailure.Reason.SANDBOX_UNAVAILABLE,
        "runsc (" + runsc.binary() + ") could not be started: " + e.getMessage(),
        "Reinstall gVisor (apt-get install runsc)");
  }

  static RunFailure notPrepared(IOException e) {
    return failure(
        RunFailure.Reason.SANDBOX_FAILED,
        "The local gVisor sandbox could not be prepared (%s: %s)"
            .formatted(e.getClass().getSimpleName(), e.getMessage()),
        "Try again");
  }

  static RunFailure unavailable(String reason) {
    return new RunFailure(
        RunFailure.Reason.SANDBOX_UNAVAILABLE,
        "The local gVisor sandbox is not available: " + reason + ". Nothing was run.");
  }

  static RunFailure cannotRun(Language language) {
    return new RunFailure(
        RunFailure.Reason.SANDBOX_UNAVAILABLE,
        "The local sandbox cannot run %s: %s. Nothing was run."
            .formatted(language.wireName(), SandboxRuntimes.missingMessage(language)));
  }

  static RunFailure failure(RunFailure.Reason reason, String happened, String firstStep) {
    return new RunFailure(reason, happened + ". " + firstStep + ", or use the cinch backend.");
  }
}
