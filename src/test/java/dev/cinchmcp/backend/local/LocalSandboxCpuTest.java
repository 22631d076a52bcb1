package dev.cinchmcp.backend.local;

import static dev.cinchmcp.backend.local.Sandboxes.await;
import static dev.cinchmcp.backend.local.Sandboxes.describe;
import static dev.cinchmcp.backend.local.Sandboxes.python;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.RequiresGvisor;
import dev.cinchmcp.backend.RunResult;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** The CPU share holds: the same work takes about twice as long at half a CPU as at a whole one. */
@RequiresGvisor
class LocalSandboxCpuTest {

  private static final String WORK =
      """
      import time
      start = time.monotonic()
      n = 0
      for i in range(15_000_000):
          n += i
      print(time.monotonic() - start)
      """;

  @TempDir Path state;

  @Test
  void halfACpuIsHalfAsFast() {
    double whole =
        seconds(
            LocalSandboxSettings.defaults().withStateDir(state.resolve("whole")).withCpuShare(2.0));
    double half = seconds(LocalSandboxSettings.defaults().withStateDir(state.resolve("half")));
    LoggerFactory.getLogger(LocalSandboxCpuTest.class)
        .info("Same work: {} s at a whole CPU, {} s at half", whole, half);
    assertTrue(half / whole > 1.6, "half a CPU took " + half + " s, a whole one " + whole + " s");
  }

  private static double seconds(LocalSandboxSettings settings) {
    try (LocalSandboxRunner runner = LocalSandboxRunner.start(settings)) {
      RunResult result = await(python(runner, WORK));
      assertTrue(result.succeeded(), describe(result));
      return Double.parseDouble(result.stdout().text().strip());
    }
  }
}
