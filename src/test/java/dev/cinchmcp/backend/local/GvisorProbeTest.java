package dev.cinchmcp.backend.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunListener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Without gVisor the runner refuses every program, says what to install, and runs nothing. */
class GvisorProbeTest {

  @TempDir Path state;

  @Test
  void runscAtAMissingPathRefusesEverythingAndRunsNothing() throws Exception {
    Path marker = state.resolve("ran-outside-" + UUID.randomUUID());
    try (LocalSandboxRunner runner =
        LocalSandboxRunner.start(
            LocalSandboxSettings.defaults()
                .withStateDir(state)
                .withRunsc("/nonexistent/bin/runsc"))) {
      assertFalse(runner.usable());
      assertEquals(
          "runsc not found at /nonexistent/bin/runsc: install gVisor "
              + "(https://gvisor.dev/docs/user_guide/install/) or apt-get install runsc",
          runner.unavailableReason());
      assertEquals("no interpreter", runner.versions().describe());

      String py = "open('" + marker + "', 'w').write('ran')";
      String js = "require('fs').writeFileSync('" + marker + "', 'ran')";
      for (Program program :
          new Program[] {new Program(py, Language.PYTHON), new Program(js, Language.JAVASCRIPT)}) {
        ExecutionException e =
            assertThrows(
                ExecutionException.class,
                () -> runner.run(program, RunListener.NONE).get(5, TimeUnit.SECONDS));
        RunFailure failure = (RunFailure) e.getCause();
        assertEquals(RunFailure.Kind.SANDBOX_UNAVAILABLE, failure.kind());
        assertTrue(failure.getMessage().contains("apt-get install runsc"), failure.getMessage());
        assertTrue(failure.getMessage().contains("Nothing was run"), failure.getMessage());
        assertFalse(failure.getMessage().contains("\tat "), "no stack trace in the message");
      }
    }
    // Closed: the runner has nothing left running that could still write it.
    assertFalse(Files.exists(marker), "the program ran outside the sandbox");
  }

  @Test
  void runscMissingFromPathSaysSo() {
    try (LocalSandboxRunner runner =
        LocalSandboxRunner.start(
            LocalSandboxSettings.defaults()
                .withStateDir(state)
                .withRunscEnvironment(Map.of("PATH", state.toString())))) {
      assertFalse(runner.usable());
      assertTrue(
          runner.unavailableReason().startsWith("runsc not found on PATH: install gVisor"),
          runner.unavailableReason());
    }
  }

  @Test
  void aRunscThatCannotStartASandboxIsUnusable() throws Exception {
    // A "runsc" that is there but broken: the self-test must catch it, not the first user.
    Path fake = state.resolve("runsc");
    Files.writeString(fake, "#!/bin/sh\necho 'runsc: simulated failure' >&2\nexit 1\n");
    assertTrue(fake.toFile().setExecutable(true));
    try (LocalSandboxRunner runner =
        LocalSandboxRunner.start(
            LocalSandboxSettings.defaults()
                .withStateDir(state.resolve("s"))
                .withRunsc(fake.toString()))) {
      // The self-test runs in the background; its verdict arrives shortly after start.
      String reason = runner.selfTestOutcome().get(30, TimeUnit.SECONDS).orElseThrow();
      assertTrue(reason.contains("self-test"), reason);
      assertFalse(runner.usable());
      RunFailure failure =
          (RunFailure)
              assertThrows(
                      ExecutionException.class,
                      () ->
                          runner
                              .run(new Program("print(1)", Language.PYTHON), RunListener.NONE)
                              .get())
                  .getCause();
      assertEquals(RunFailure.Kind.SANDBOX_UNAVAILABLE, failure.kind());
    }
  }
}
