package dev.cinchmcp.config;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The server's configuration, read once from the environment at start and never changed after.
 *
 * <p>A configuration problem does not stop the server (an MCP client that cannot start a server
 * shows its user nothing useful). Instead the problems are kept here, printed on stderr at start,
 * and every tool call answers with them until the user fixes the environment.
 *
 * @param apiKey the Cinch API key, empty when not set; never printed
 * @param baseUri the API's base, without a trailing slash
 * @param timeout how long a call waits for the API's answer
 * @param problems what is wrong, one sentence each naming the variable and the fix; empty when the
 *     Cinch API can be used (a missing key is one of them)
 * @param backend which backend the user asked for
 * @param runsc gVisor's runsc for the local backend: a name looked up on PATH, or a path
 * @param docker the docker backend's images, runtime and engine discovery
 * @param localPool how many local sandboxes per language are started ahead of time (0: none)
 * @param limits what a program may use in a local or docker sandbox (the service's by default)
 */
public record Settings(
    Optional<String> apiKey,
    URI baseUri,
    Duration timeout,
    List<String> problems,
    Backend backend,
    String runsc,
    DockerOptions docker,
    int localPool,
    SandboxLimits limits) {

  public static final String API_KEY = "CINCH_API_KEY";
  public static final String BASE_URL = "CINCH_BASE_URL";
  public static final String TIMEOUT_MS = "CINCH_TIMEOUT_MS";
  public static final String BACKEND = "CINCH_BACKEND";
  public static final String RUNSC = "CINCH_RUNSC";
  public static final String LOCAL_POOL = "CINCH_LOCAL_POOL";

  /** Local sandboxes waiting per language: one takes the start off sequential calls. */
  public static final int DEFAULT_LOCAL_POOL = 1;

  /** The most {@value #LOCAL_POOL} allows: each waiting sandbox holds ~20-25 MB. */
  public static final int MAX_LOCAL_POOL = 8;

  /** The problem of a missing key: the one that a local sandbox can stand in for. */
  public static final String MISSING_KEY =
      API_KEY
          + " is not set: set it to your Cinch API key (it looks like"
          + " cinch_live_...) in the \"env\" block of this server's entry in your MCP client's configuration.";

  /** The Cinch API's address, written once: the default and every message that names it. */
  public static final String DEFAULT_BASE_URL = "https://api.cinch.codes";

  public static final URI DEFAULT_BASE_URI = URI.create(DEFAULT_BASE_URL);
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(20_000);

  public Settings {
    problems = List.copyOf(problems);
  }

  /** Reads and checks the settings from an environment map (normally {@code System.getenv()}). */
  public static Settings fromEnvironment(Map<String, String> env) {
    return SettingsReader.read(env, Runtime.getRuntime().availableProcessors());
  }

  /** Whether only the key is missing, so a local sandbox may stand in for the Cinch API. */
  public boolean onlyKeyMissing() {
    return apiKey.isEmpty() && problems.size() == 1 && problems.contains(MISSING_KEY);
  }

  /** The problems with the sandbox limits alone: they stop the local and docker backends too. */
  public List<String> limitProblems() {
    return problems.stream().filter(SandboxLimits::isAbout).toList();
  }

  /** Whether the Cinch API can be used: a key is set and every setting is valid. */
  public boolean usable() {
    return problems.isEmpty();
  }

  /** The endpoint a program is posted to. */
  public URI runUri() {
    return URI.create(baseUri + "/run");
  }

  /** The one line written on stderr at a good start; the key appears only as "set". */
  public String describe() {
    return "base URL "
        + baseUri
        + ", timeout "
        + timeout.toMillis()
        + " ms, API key "
        + (apiKey.isPresent() ? "set" : "not set");
  }

  @Override
  public String toString() {
    // Records print every component by default; this one must never print the key.
    return "Settings[" + describe() + ", problems=" + problems + "]";
  }
}
