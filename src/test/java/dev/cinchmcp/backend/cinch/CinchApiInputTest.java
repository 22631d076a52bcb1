package dev.cinchmcp.backend.cinch;

import static dev.cinchmcp.testkit.Requires.Need.PRIVATE_TMP;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cinchmcp.backend.CodeRunner;
import dev.cinchmcp.testkit.CodeRunningApi;
import dev.cinchmcp.testkit.InputScenarios;
import dev.cinchmcp.testkit.Requires;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The input scenarios through the real Cinch runner and real HTTP, against an API that really runs
 * the posted launcher and the program it starts.
 */
@Requires(PRIVATE_TMP)
class CinchApiInputTest extends InputScenarios {

  @RegisterExtension static final CodeRunningApi api = new CodeRunningApi().withTmp("64m");

  @Override
  protected CodeRunner runner() {
    return api.runner();
  }

  @org.junit.jupiter.api.Test
  void eachScenarioIsOneRequest() {
    int before = api.requests();
    python("print(1)", args("a"));
    assertEquals(before + 1, api.requests());
  }
}
