package dev.cinchmcp.cli;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.config.Version;
import dev.cinchmcp.testkit.FakeCinchApi;
import dev.cinchmcp.testkit.JarProcess;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The command line of the built jar, run as a real process (what a person types in a terminal). */
class CliJarIT {

  @RegisterExtension final FakeCinchApi api = new FakeCinchApi();

  @Test
  void versionPrintsTheVersionTheBuildStamped() throws Exception {
    JarProcess.Exited run = JarProcess.run(JarProcess.jar(), Map.of(), "", "--version");

    assertEquals(0, run.exitCode());
    assertEquals("cinch-mcp " + Version.get() + "\n", run.out());
    assertEquals("", run.err());
  }

  @Test
  void checkAgainstAWorkingApiExitsZero() throws Exception {
    api.answer(okJson(CliRun.fixture("run-answer.json")));

    JarProcess.Exited run = JarProcess.run(JarProcess.jar(), env(), "", "--check");

    assertEquals(0, run.exitCode(), run.out() + run.err());
    assertTrue(run.out().contains("OK: execute_code calls will work."), run.out());
    assertFalse(run.shows(CliRun.KEY));
  }

  @Test
  void checkWithARefusedKeyExitsOneAndNeverShowsTheKey() throws Exception {
    api.answer(
        aResponse().withStatus(401).withBody(CliRun.fixture("key-refused-echoing-key.json")));

    JarProcess.Exited run =
        JarProcess.run(JarProcess.jar(), env("CINCH_LOG_LEVEL", "trace"), "", "--check");

    assertEquals(1, run.exitCode(), run.out() + run.err());
    assertTrue(run.out().contains("API key        REFUSED"), run.out());
    assertFalse(run.shows(CliRun.KEY), run.out() + run.err());
  }

  @Test
  void unknownFlagExitsTwoWithUsageOnStderr() throws Exception {
    JarProcess.Exited run = JarProcess.run(JarProcess.jar(), Map.of(), "", "--verbose");

    assertEquals(2, run.exitCode());
    assertEquals("", run.out());
    assertTrue(run.err().contains("unknown option: --verbose"), run.err());
  }

  @Test
  void logLevelIsAppliedBeforeTheFirstLogLine() throws Exception {
    JarProcess.Exited normal = JarProcess.run(JarProcess.jar(), env(), "");
    JarProcess.Exited quiet = JarProcess.run(JarProcess.jar(), env("CINCH_LOG_LEVEL", "WARN"), "");
    JarProcess.Exited invalid =
        JarProcess.run(JarProcess.jar(), env("CINCH_LOG_LEVEL", "chatty"), "");

    assertTrue(normal.err().contains("ready on stdio"), normal.err());
    assertEquals("", quiet.err());
    assertTrue(invalid.err().contains("CINCH_LOG_LEVEL must be one of"), invalid.err());
    assertTrue(
        invalid.err().contains("ready on stdio"), "an invalid level keeps the default, info");
    assertEquals(
        "",
        normal.out() + quiet.out() + invalid.out(),
        "nothing but JSON-RPC on stdout, and no request came");
  }

  private Map<String, String> env(String... more) {
    Map<String, String> env =
        new java.util.HashMap<>(
            Map.of("CINCH_API_KEY", CliRun.KEY, "CINCH_BASE_URL", api.baseUrl()));
    for (int i = 0; i < more.length; i += 2) {
      env.put(more[i], more[i + 1]);
    }
    return env;
  }
}
