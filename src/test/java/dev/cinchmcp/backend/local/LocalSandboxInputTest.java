package dev.cinchmcp.backend.local;

import static dev.cinchmcp.testkit.Requires.Need.GVISOR;

import dev.cinchmcp.backend.CodeRunner;
import dev.cinchmcp.testkit.InputScenarios;
import dev.cinchmcp.testkit.LocalClassRunner;
import dev.cinchmcp.testkit.Requires;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The input scenarios in real gVisor sandboxes: the same launcher, run by the local backend. */
@Requires(GVISOR)
class LocalSandboxInputTest extends InputScenarios {

  @TempDir static Path state;
  @RegisterExtension static final LocalClassRunner local = new LocalClassRunner(() -> state);

  @Override
  protected CodeRunner runner() {
    return local.runner();
  }
}
