package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides at start-up whether the local backend can be used: runsc is there, an interpreter the
 * sandbox can see is there, and a real sandbox runs a real program. The self-test programs print
 * the interpreter versions, so the versions shown to the model are the ones inside the sandbox.
 *
 * <p>When anything is missing the answer says what to install; there is never a fallback to running
 * code outside gVisor.
 */
final class GvisorProbe {

  private static final Logger log = LoggerFactory.getLogger(GvisorProbe.class);

  static final String INSTALL_HINT =
      "install gVisor (https://gvisor.dev/docs/user_guide/install/) or apt-get install runsc";

  private static final Map<Language, String> VERSION_PROGRAMS =
      Map.of(
          Language.PYTHON, "import platform; print(platform.python_version())",
          Language.JAVASCRIPT, "console.log(process.versions.node)");

  /** What the probe found. When {@code usable} is false, {@code reason} says what to do. */
  record Outcome(
      boolean usable,
      String reason,
      Runsc runsc,
      CgroupLimits cgroups,
      SandboxRuntimes runtimes,
      RuntimeVersions versions) {}

  private GvisorProbe() {}

  static Outcome probe(LocalSandboxSettings settings, ExecutorService streamThreads) {
    Optional<Path> binary = Runsc.locate(settings.runsc(), settings.runscEnvironment());
    if (binary.isEmpty()) {
      String where = settings.runsc().contains("/") ? "at " + settings.runsc() : "on PATH";
      return unusable("runsc not found " + where + ": " + INSTALL_HINT);
    }
    SandboxRuntimes runtimes = SandboxRuntimes.find();
    if (runtimes.interpreter(Language.PYTHON).isEmpty()
        && runtimes.interpreter(Language.JAVASCRIPT).isEmpty()) {
      return unusable(
          "no interpreter the sandbox can see: "
              + SandboxRuntimes.missingMessage(Language.PYTHON)
              + "; "
              + SandboxRuntimes.missingMessage(Language.JAVASCRIPT));
    }
    try {
      makePrivateDir(settings.stateDir());
      makePrivateDir(settings.runscRoot());
      makePrivateDir(settings.bundles());
    } catch (IOException e) {
      return unusable(
          "the state directory "
              + settings.stateDir()
              + " cannot be made ("
              + e.getMessage()
              + ")");
    }
    Runsc runsc = new Runsc(binary.get(), settings.runscRoot(), settings.runscEnvironment());
    CgroupLimits cgroups = CgroupLimits.detect();
    cgroups
        .unavailableReason()
        .ifPresent(
            reason ->
                log.warn(
                    "Local sandbox without cgroup limits ({}): memory is held only by RLIMIT_AS (Python) and the heap limit "
                        + "(Node), processes by RLIMIT_NPROC, and there is no CPU share",
                    reason));
    Housekeeping.removeLeftovers(runsc, settings.bundles(), cgroups);

    Map<Language, String> versions = new EnumMap<>(Language.class);
    for (Language language : Language.values()) {
      if (runtimes.interpreter(language).isEmpty()) {
        log.warn(
            "Local sandbox without {}: {}",
            language.wireName(),
            SandboxRuntimes.missingMessage(language));
        continue;
      }
      Program program = new Program(VERSION_PROGRAMS.get(language), language);
      SandboxRun run =
          new SandboxRun(
              Housekeeping.nextRunId(), program, settings, runsc, cgroups, runtimes, streamThreads);
      try {
        RunResult result = run.execute();
        if (!result.succeeded()) {
          return unusable(
              "the gVisor self-test ("
                  + language.wireName()
                  + ") failed with exit code "
                  + result.exitCode()
                  + (result.timedOut() ? " (timed out)" : "")
                  + ": "
                  + result.stderr().text().strip().lines().findFirst().orElse("no output"));
        }
        versions.put(language, result.stdout().text().strip());
      } catch (RunFailure e) {
        return unusable(e.getMessage());
      }
    }
    return new Outcome(true, null, runsc, cgroups, runtimes, new RuntimeVersions(versions));
  }

  private static Outcome unusable(String reason) {
    return new Outcome(false, reason, null, null, null, RuntimeVersions.NONE);
  }

  private static void makePrivateDir(Path dir) throws IOException {
    Files.createDirectories(dir);
    try {
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    } catch (UnsupportedOperationException e) {
      // not a POSIX file system; the directory still works
    }
  }
}
