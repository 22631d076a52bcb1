package dev.cinchmcp.cli;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.cinchmcp.testkit.FakeCinchApi;
import dev.cinchmcp.testkit.HangingApi;
import dev.cinchmcp.testkit.KeyEchoes;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code --check} against a scripted Cinch API: one test per answer a person can get. */
class SelfCheckTest {

  @RegisterExtension final FakeCinchApi api = new FakeCinchApi();

  @Test
  void apiUpSaysCallsWillWorkAndExitsZero() {
    api.answer(okJson(CliRun.fixture("run-answer.json")));

    CliRun run = check(env());

    assertEquals(0, run.exitCode(), run.out());
    assertLine(run, "Configuration  OK");
    assertLine(run, "Packages       standard library only");
    assertLine(run, "API reachable  yes");
    assertLine(run, "API key        accepted");
    assertLine(run, "Credits        available");
    assertTrue(run.out().matches("(?s).*Round trip     \\d+ ms\n.*"), run.out());
    assertTrue(run.out().endsWith("OK: execute_code calls will work.\n"), run.out());
    api.verify(
        1,
        postRequestedFor(urlEqualTo("/run"))
            .withHeader("Authorization", equalTo("Bearer " + CliRun.KEY))
            .withRequestBody(matchingJsonPath("$.code", equalTo(SelfCheck.PROBE.code()))));
    assertFalse(run.showsKey());
  }

  @Test
  void apiDownSaysUnreachableAndFails() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }

    CliRun run = check(env("CINCH_BASE_URL", "http://127.0.0.1:" + closedPort));

    assertEquals(1, run.exitCode(), run.out());
    assertLine(run, "API reachable  NO");
    assertLine(run, "API key        not checked");
    assertSays(run, "FAILED: the API cannot be reached");
    assertFalse(run.showsKey());
  }

  /** An answer that refuses the run fails the check, says why, and never shows the key. */
  @ParameterizedTest(name = "{0}")
  @MethodSource
  void aRefusalFailsAndSaysWhy(
      String what, int status, String fixture, List<String> lines, List<String> says) {
    api.answer(
        aResponse()
            .withStatus(status)
            .withHeader("Content-Type", "application/json")
            .withBody(CliRun.fixture(fixture)));

    CliRun run = check(env());

    assertEquals(1, run.exitCode(), run.out());
    lines.forEach(line -> assertLine(run, line));
    assertSays(run, says.toArray(String[]::new));
    assertFalse(run.showsKey(), run.out() + run.err());
  }

  static Stream<Arguments> aRefusalFailsAndSaysWhy() {
    return Stream.of(
        arguments(
            "a refused key, even one the API echoes",
            401,
            "key-refused-echoing-key.json",
            List.of("API reachable  yes", "API key        REFUSED"),
            List.of("FAILED: the API refused the key", "HTTP 401")),
        arguments(
            "exhausted credits",
            402,
            "credits-exhausted.json",
            List.of("API key        accepted", "Credits        EXHAUSTED"),
            List.of("FAILED: the Cinch account is out of credits")));
  }

  @Test
  void serverErrorFails() {
    api.answer(aResponse().withStatus(503).withBody("{\"error\":\"service unavailable\"}"));

    CliRun run = check(env());

    assertEquals(1, run.exitCode(), run.out());
    assertLine(run, "API reachable  yes, but it is failing");
  }

  @Test
  void noAnswerInTimeSaysSoAndFails() throws Exception {
    try (HangingApi hanging = new HangingApi()) {
      CliRun run = check(env("CINCH_TIMEOUT_MS", "300", "CINCH_BASE_URL", hanging.baseUrl()));

      assertTrue(hanging.awaitRequest(5), "the request reached the API");
      assertEquals(1, run.exitCode(), run.out());
      assertLine(run, "API reachable  no answer within 300 ms");
      assertSays(run, "CINCH_TIMEOUT_MS");
    }
  }

  @Test
  void missingKeyIsAConfigurationProblemAndNothingIsSent() {
    CliRun run = check(env("CINCH_BACKEND", "cinch", "CINCH_API_KEY", null));

    assertFailsBeforeSending(run, "CINCH_API_KEY is not set");
    assertLine(run, "Configuration  NOT OK");
    assertLine(run, "API reachable  not checked");
  }

  @Test
  void everyConfigurationProblemIsListed() {
    CliRun run = check(env("CINCH_BASE_URL", "ftp://example.com", "CINCH_TIMEOUT_MS", "soon"));

    assertFailsBeforeSending(run, "CINCH_BASE_URL", "CINCH_TIMEOUT_MS");
    assertFalse(run.showsKey());
  }

  @Test
  void withoutAKeyOrGvisorAutoSaysBothAndNothingRuns() {
    CliRun run = check(env("CINCH_RUNSC", "/nonexistent/runsc", "CINCH_API_KEY", null));

    assertFailsBeforeSending(
        run, "CINCH_API_KEY is not set", "No local gVisor sandbox could stand in");
  }

  @Test
  void explicitLocalBackendWithoutGvisorFailsWithWhatToInstall() {
    CliRun run = check(env("CINCH_BACKEND", "local", "CINCH_RUNSC", "/nonexistent/runsc"));

    assertFailsBeforeSending(run, "gVisor");
  }

  @Test
  void unknownBackendIsAConfigurationProblem() {
    CliRun run = check(env("CINCH_BACKEND", "kubernetes"));

    assertFailsBeforeSending(
        run, "CINCH_BACKEND must be auto, cinch, local or docker (was \"kubernetes\")");
  }

  static java.util.stream.IntStream encodings() {
    return java.util.stream.IntStream.range(0, KeyEchoes.of(CliRun.KEY).size());
  }

  @ParameterizedTest
  @MethodSource("encodings")
  void refusedKeyEchoedInAnyEncodingIsNeverShown(int encoding) {
    String echo = KeyEchoes.of(CliRun.KEY).get(encoding);
    api.answer(aResponse().withStatus(401).withBody("{\"error\":\"bad key " + echo + "\"}"));

    CliRun run = check(env());

    assertLine(run, "API key        REFUSED");
    KeyEchoes.assertNoKey(CliRun.KEY, run.out());
    KeyEchoes.assertNoKey(CliRun.KEY, run.err());
  }

  @ParameterizedTest
  @MethodSource("encodings")
  void keyPrintedInAnyEncodingByTheTestProgramIsNeverShown(int encoding) {
    String echo = KeyEchoes.of(CliRun.KEY).get(encoding).replace("\\", "\\\\");
    api.answer(okJson("{\"stdout\":\"" + echo + "\",\"exitCode\":0}"));

    CliRun run = check(env());

    assertTrue(run.out().contains("Note: the test program printed"), "the output is shown");
    KeyEchoes.assertNoKey(CliRun.KEY, run.out());
    KeyEchoes.assertNoKey(CliRun.KEY, run.err());
  }

  private CliRun check(Map<String, String> env) {
    return CliRun.of(env, "--check");
  }

  /** The key and the scripted API's address, with the given variables on top (null: unset). */
  private Map<String, String> env(String... overrides) {
    Map<String, String> env = new HashMap<>();
    env.put("CINCH_API_KEY", CliRun.KEY);
    env.put("CINCH_BASE_URL", api.baseUrl());
    for (int i = 0; i < overrides.length; i += 2) {
      if (overrides[i + 1] == null) {
        env.remove(overrides[i]);
      } else {
        env.put(overrides[i], overrides[i + 1]);
      }
    }
    return env;
  }

  /** The check failed (exit 1) before it sent anything to the API, and said all of these. */
  private void assertFailsBeforeSending(CliRun run, String... says) {
    assertEquals(1, run.exitCode(), run.out());
    assertSays(run, says);
    api.verify(0, postRequestedFor(urlEqualTo("/run")));
  }

  private static void assertSays(CliRun run, String... parts) {
    for (String part : parts) {
      assertTrue(run.out().contains(part), run.out());
    }
  }

  private static void assertLine(CliRun run, String start) {
    assertTrue(
        run.out().lines().anyMatch(line -> line.startsWith("  " + start)),
        () -> "expected a line starting \"" + start + "\" in:\n" + run.out());
  }
}
