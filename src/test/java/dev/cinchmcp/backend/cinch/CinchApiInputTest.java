package dev.cinchmcp.backend.cinch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cinchmcp.backend.CodeRunner;
import dev.cinchmcp.backend.InputScenarios;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The input scenarios through the real Cinch runner and real HTTP, against an API that really runs
 * the posted launcher and the program it starts.
 */
class CinchApiInputTest extends InputScenarios {

  private static RunningFakeApi api;
  private static ApiHarness harness;
  private static CinchApiRunner runner;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(RunningFakeApi.canIsolateTmp(), "needs root: each run gets its own /tmp");
    Path runs = Files.createDirectories(Path.of("target", "fake-api-runs").toAbsolutePath());
    api = new RunningFakeApi(runs, "64m");
    harness = new ApiHarness();
    runner = harness.runner(api.runUri(), Duration.ofSeconds(30));
  }

  @AfterAll
  static void stop() {
    if (api != null) {
      runner.close();
      harness.close();
      api.close();
    }
  }

  @Override
  protected CodeRunner runner() {
    return runner;
  }

  @org.junit.jupiter.api.Test
  void eachScenarioIsOneRequest() {
    int before = api.requests();
    python("print(1)", args("a"));
    assertEquals(before + 1, api.requests());
  }
}
