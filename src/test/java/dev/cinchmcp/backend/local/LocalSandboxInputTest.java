package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.CodeRunner;
import dev.cinchmcp.backend.InputScenarios;
import dev.cinchmcp.testkit.RequiresGvisor;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** The input scenarios in real gVisor sandboxes: the same launcher, run by the local backend. */
@RequiresGvisor
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
