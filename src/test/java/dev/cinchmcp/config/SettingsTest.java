package dev.cinchmcp.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class SettingsTest {

  private static final String KEY = "cinch_live_test_5f2c9a1b7e";

  private static Settings read(String... pairs) {
    Map<String, String> env = new HashMap<>();
    env.put(Settings.API_KEY, KEY);
    for (int i = 0; i < pairs.length; i += 2) {
      if (pairs[i + 1] == null) {
        env.remove(pairs[i]);
      } else {
        env.put(pairs[i], pairs[i + 1]);
      }
    }
    return Settings.fromEnvironment(env);
  }

  /** Asserts that {@code s} has one problem, which starts with {@code start}; returns it. */
  private static String onlyProblem(Settings s, String start) {
    assertEquals(1, s.problems().size(), s.problems()::toString);
    assertFalse(s.usable());
    String problem = s.problems().get(0);
    assertTrue(problem.startsWith(start), problem);
    return problem;
  }

  @Test
  void theLocalPoolHoldsOneSandboxPerLanguageUnlessToldOtherwise() {
    assertEquals(1, read().localPool());
    assertEquals(0, read(Settings.LOCAL_POOL, "0").localPool());
    assertEquals(8, read(Settings.LOCAL_POOL, " 8 ").localPool());
    assertEquals(1, read(Settings.LOCAL_POOL, "").localPool());
  }

  @Test
  void theDockerPoolHoldsOneContainerPerLanguageUnlessToldOtherwise() {
    assertEquals(1, read().docker().pool());
    assertEquals(0, read(DockerOptions.POOL, "0").docker().pool());
    assertEquals(8, read(DockerOptions.POOL, " 8 ").docker().pool());
    assertEquals(1, read(DockerOptions.POOL, "").docker().pool());
  }

  @ParameterizedTest
  @ValueSource(strings = {"-1", "9", "two", "1.5", "100", "0x1"})
  void aBadDockerPoolIsAProblemNamingTheVariableTheValueAndTheDefault(String given) {
    Settings s = read(DockerOptions.POOL, given);
    String problem = onlyProblem(s, "CINCH_DOCKER_POOL must be a whole number from 0 to 8");
    assertTrue(problem.contains("\"" + given + "\""), problem);
    assertTrue(problem.contains("0 turns this off, unset means 1."), problem);
    assertEquals(DockerOptions.DEFAULT_POOL, s.docker().pool());
  }

  @Test
  void keyAloneGivesTheDefaults() {
    Settings s = read();
    assertTrue(s.usable(), s.problems()::toString);
    assertEquals(Optional.of(KEY), s.apiKey());
    assertEquals(URI.create("https://api.cinch.codes"), s.baseUri());
    assertEquals(Duration.ofMillis(20_000), s.timeout());
    assertEquals(URI.create("https://api.cinch.codes/run"), s.runUri());
  }

  @Test
  void keyIsStrippedOfSurroundingWhitespace() {
    assertEquals(Optional.of(KEY), read(Settings.API_KEY, "  " + KEY + "\n").apiKey());
  }

  @ParameterizedTest(name = "[{index}] \"{0}\"")
  @ValueSource(strings = {"", " ", "\t\n"})
  void blankKeyIsAProblemNamingTheVariable(String key) {
    onlyProblem(read(Settings.API_KEY, key), "CINCH_API_KEY is not set");
  }

  @Test
  void missingKeyIsAProblemNamingTheVariable() {
    Settings s = read(Settings.API_KEY, null);
    onlyProblem(s, "CINCH_API_KEY is not set");
    assertEquals(Optional.empty(), s.apiKey());
  }

  @ParameterizedTest(name = "\"{0}\" -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "https://api.cinch.codes/ | https://api.cinch.codes",
        "https://api.cinch.codes/// | https://api.cinch.codes",
        "  https://eu.cinch.example/v2/  | https://eu.cinch.example/v2",
        "https://api.cinch.codes:8443 | https://api.cinch.codes:8443",
        "HTTPS://API.CINCH.CODES | HTTPS://API.CINCH.CODES",
        "http://localhost:8080 | http://localhost:8080",
        "http://LOCALHOST:8080/ | http://LOCALHOST:8080",
        "http://127.0.0.1:9999 | http://127.0.0.1:9999",
        "http://127.1.2.3 | http://127.1.2.3",
        "http://[::1]:8080 | http://[::1]:8080",
        "http://cinch.localhost | http://cinch.localhost"
      })
  void acceptedBaseUrlsLoseTheirTrailingSlashes(String given, String expected) {
    Settings s = read(Settings.BASE_URL, given);
    assertTrue(s.usable(), s.problems()::toString);
    assertEquals(URI.create(expected), s.baseUri());
    assertEquals(URI.create(expected + "/run"), s.runUri());
  }

  @Test
  void blankBaseUrlMeansTheDefault() {
    assertEquals(Settings.DEFAULT_BASE_URI, read(Settings.BASE_URL, "  ").baseUri());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "http://api.cinch.codes",
        "http://10.0.0.5:8080",
        "http://localhost.evil.example",
        "http://127.0.0.1.nip.io",
        "http://[::2]"
      })
  void plainHttpToAnotherHostIsRefusedNamingTheVariable(String url) {
    Settings s = read(Settings.BASE_URL, url);
    String problem = onlyProblem(s, "CINCH_BASE_URL uses plain http");
    assertTrue(problem.contains("https"), problem);
    assertEquals(Settings.DEFAULT_BASE_URI, s.baseUri(), "never kept, not even as a fallback");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "not a url",
        "api.cinch.codes",
        "ftp://api.cinch.codes",
        "https://",
        "https://api.cinch.codes/run?x=1",
        "https://api.cinch.codes#top",
        "mailto:someone@example.com",
        "https://exa mple.com"
      })
  void garbageBaseUrlIsAProblemNamingTheVariable(String url) {
    onlyProblem(read(Settings.BASE_URL, url), "CINCH_BASE_URL");
  }

  /**
   * A key with spaces or odd characters, and a base URL with user info, are refused without being
   * shown (the secret part is not in the problem) and count as unset.
   */
  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource
  void aRefusedSecretIsNotEchoedAndCountsAsUnset(
      String variable, String value, String start, String secret) {
    Settings s = read(variable, value);
    String problem = onlyProblem(s, start);
    assertFalse(problem.contains(secret), problem);
    Settings unset = read(variable, null);
    assertEquals(unset.apiKey(), s.apiKey());
    assertEquals(unset.baseUri(), s.baseUri());
  }

  static Stream<Arguments> aRefusedSecretIsNotEchoedAndCountsAsUnset() {
    String key = "CINCH_API_KEY contains";
    String url = "CINCH_BASE_URL";
    String user = "hunter2secret";
    return Stream.of(
        arguments(Settings.API_KEY, "cinch_live_ab cd12", key, "cinch_live_ab"),
        arguments(Settings.API_KEY, "\"cinch_live_abcd12\" extra", key, "cinch_live_ab"),
        arguments(Settings.API_KEY, "cinch_live_ab\ncd", key, "cinch_live_ab"),
        arguments(Settings.API_KEY, "cinch_live_äbc", key, "cinch_live_ab"),
        arguments(Settings.BASE_URL, "https://user:hunter2secret@api.cinch.codes", url, user),
        arguments(Settings.BASE_URL, "https://hunter2secret@api.cinch.codes", url, user),
        arguments(Settings.BASE_URL, "https://user:hunter2secret@bad host/", url, user),
        arguments(Settings.BASE_URL, "https://user:hunter2secret@@api.cinch.codes", url, user),
        arguments(
            Settings.BASE_URL, "https://user:hunter2secret@api.cinch.codes:notaport", url, user),
        arguments(Settings.BASE_URL, "ftp://user:hunter2secret@api.cinch.codes", url, user));
  }

  @ParameterizedTest(name = "\"{0}\" -> {1} ms")
  @CsvSource({"1, 1", "500, 500", "' 30000 ', 30000", "999999999999, 999999999999"})
  void timeoutInWholeMilliseconds(String given, long expected) {
    Settings s = read(Settings.TIMEOUT_MS, given);
    assertTrue(s.usable(), s.problems()::toString);
    assertEquals(Duration.ofMillis(expected), s.timeout());
  }

  @Test
  void blankTimeoutMeansTheDefault() {
    assertEquals(Duration.ofMillis(20_000), read(Settings.TIMEOUT_MS, "").timeout());
  }

  /** The local pool's size must be 0 to 8 and the timeout a positive whole number of ms. */
  @ParameterizedTest(name = "{0}=\"{1}\"")
  @CsvSource(
      delimiter = '|',
      value = {
        "CINCH_LOCAL_POOL | -1 | CINCH_LOCAL_POOL must be a whole number from 0 to 8",
        "CINCH_LOCAL_POOL | 9 | CINCH_LOCAL_POOL must be a whole number from 0 to 8",
        "CINCH_LOCAL_POOL | two | CINCH_LOCAL_POOL must be a whole number from 0 to 8",
        "CINCH_LOCAL_POOL | 1.5 | CINCH_LOCAL_POOL must be a whole number from 0 to 8",
        "CINCH_LOCAL_POOL | 100 | CINCH_LOCAL_POOL must be a whole number from 0 to 8",
        "CINCH_TIMEOUT_MS | abc | CINCH_TIMEOUT_MS",
        "CINCH_TIMEOUT_MS | 0 | CINCH_TIMEOUT_MS",
        "CINCH_TIMEOUT_MS | -5 | CINCH_TIMEOUT_MS",
        "CINCH_TIMEOUT_MS | 1.5 | CINCH_TIMEOUT_MS",
        "CINCH_TIMEOUT_MS | 20s | CINCH_TIMEOUT_MS",
        "CINCH_TIMEOUT_MS | +100 | CINCH_TIMEOUT_MS",
        "CINCH_TIMEOUT_MS | 1e4 | CINCH_TIMEOUT_MS",
        "CINCH_TIMEOUT_MS | 0x10 | CINCH_TIMEOUT_MS",
        "CINCH_TIMEOUT_MS | 99999999999999999999999 | CINCH_TIMEOUT_MS",
        "CINCH_TIMEOUT_MS | 9223372036854775808 | CINCH_TIMEOUT_MS"
      })
  void aBadNumberIsAProblemNamingTheVariableAndTheValueAndTheDefaultHolds(
      String variable, String given, String start) {
    Settings s = read(variable, given);
    String problem = onlyProblem(s, start);
    assertTrue(problem.contains("\"" + given + "\""), problem);
    assertEquals(Settings.DEFAULT_LOCAL_POOL, s.localPool());
    assertEquals(Settings.DEFAULT_TIMEOUT, s.timeout());
  }

  @Test
  void everyProblemIsReportedTogether() {
    Settings s =
        read(
            Settings.API_KEY,
            null,
            Settings.BASE_URL,
            "http://example.com",
            Settings.TIMEOUT_MS,
            "soon");
    List<String> problems = s.problems();
    assertEquals(3, problems.size(), problems::toString);
    assertTrue(problems.get(0).startsWith("CINCH_API_KEY"), problems::toString);
    assertTrue(problems.get(1).startsWith("CINCH_BASE_URL"), problems::toString);
    assertTrue(problems.get(2).startsWith("CINCH_TIMEOUT_MS"), problems::toString);
  }

  @Test
  void toStringAndDescribeNeverShowTheKey() {
    Settings s = read();
    assertFalse(s.toString().contains(KEY), s.toString());
    assertFalse(s.describe().contains(KEY), s.describe());
    assertTrue(s.describe().contains("API key set"), s.describe());
    Settings broken = read(Settings.TIMEOUT_MS, "x");
    assertFalse(broken.toString().contains(KEY), broken.toString());
  }

  @Test
  void problemsCannotBeChangedAfterwards() {
    List<String> problems = read(Settings.TIMEOUT_MS, "x").problems();
    org.junit.jupiter.api.Assertions.assertThrows(
        UnsupportedOperationException.class, () -> problems.add("b"));
  }

  @Test
  void loopbackIsDecidedWithoutLookingNamesUp() {
    assertTrue(SettingsReader.isLoopback("localhost"));
    assertTrue(SettingsReader.isLoopback("[::1]"));
    assertTrue(SettingsReader.isLoopback("127.0.0.1"));
    assertFalse(SettingsReader.isLoopback("localhost.example.com"));
    assertFalse(SettingsReader.isLoopback("0.0.0.0"));
    assertFalse(SettingsReader.isLoopback("192.168.1.1"));
  }

  @ParameterizedTest(name = "\"{0}\" -> \"{1}\"")
  @CsvSource(
      delimiter = '|',
      value = {
        "https://u:p@host/x@y | https://***@host/x@y",
        "u:p@host | ***@host",
        "https://host/path | https://host/path",
        "not a url | not a url",
        "https://a@b@host?q=@ | https://***@host?q=@"
      })
  void userInfoIsMaskedBeforeAValueIsShown(String raw, String shown) {
    assertEquals(shown, SettingsReader.withoutUserInfo(raw));
  }

  @Test
  void theDockerBackendsDefaultsAndItsSettings() {
    Settings defaults = Settings.fromEnvironment(Map.of());
    assertEquals("python:3.12-slim", defaults.docker().pythonImage());
    assertEquals("node:22-slim", defaults.docker().nodeImage());
    assertTrue(defaults.docker().runtime().isEmpty());
    Settings set =
        Settings.fromEnvironment(
            Map.of(
                "CINCH_BACKEND", " Docker ",
                "CINCH_DOCKER_PYTHON_IMAGE", "mirror.example/python:3.13-slim",
                "CINCH_DOCKER_NODE_IMAGE", "node:24-alpine",
                "CINCH_DOCKER_RUNTIME", "runsc",
                "DOCKER_HOST", "unix:///Users/ann/.colima/default/docker.sock",
                "UNRELATED", "x"));
    assertEquals(Backend.DOCKER, set.backend());
    assertEquals("mirror.example/python:3.13-slim", set.docker().pythonImage());
    assertEquals("node:24-alpine", set.docker().nodeImage());
    assertEquals("runsc", set.docker().runtime().orElseThrow());
    assertEquals(
        Map.of("DOCKER_HOST", "unix:///Users/ann/.colima/default/docker.sock"),
        set.docker().discovery(),
        "only what engine discovery reads is kept");
  }

  @Test
  void anImageNameWithSpacesIsAProblemNamingTheVariable() {
    Settings s =
        Settings.fromEnvironment(
            Map.of("CINCH_API_KEY", "cinch_live_x", "CINCH_DOCKER_NODE_IMAGE", "node 22"));
    assertFalse(s.usable());
    assertTrue(
        s.problems().get(0).startsWith("CINCH_DOCKER_NODE_IMAGE must be one name with no spaces"),
        s.problems().toString());
    assertEquals("node:22-slim", s.docker().nodeImage());
  }
}
