package dev.cinchmcp.backend.local;

import static dev.cinchmcp.testkit.Requires.Need.GVISOR;

import dev.cinchmcp.backend.CodeRunner;
import dev.cinchmcp.backend.InputScenarios;
import dev.cinchmcp.testkit.Requires;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** The input scenarios in real gVisor sandboxes: the same launcher, run by the local backend. */
@Requires(GVISOR)
class LocalSandboxInputTest extends InputScenarios {

  @TempDir static Path state;
  static LocalSandboxRunner runner;

  @BeforeAll
  static void start() {
    runner = Sandboxes.runner(state);
  }

  @AfterAll
  static void stop() throws Exception {
    Sandboxes.assertNothingLeft(runner);
    runner.close();
  }

  @Override
  protected CodeRunner runner() {
    return runner;
  }
}
