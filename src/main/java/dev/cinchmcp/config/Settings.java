package dev.cinchmcp.config;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The server's configuration, read once from the environment at start. A problem does not stop the
 * server (a client that cannot start one shows nothing useful): every tool call answers with it.
 *
 * @param apiKey empty when not set; never printed
 * @param baseUri without a trailing slash
 * @param problems one sentence each naming the variable and the fix (a missing key is one)
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

  /** One waiting sandbox takes the start off sequential calls; each holds ~20-25 MB. */
  public static final int DEFAULT_LOCAL_POOL = 1;

  public static final int MAX_LOCAL_POOL = 8;

  /** The problem of a missing key: the one that a local sandbox can stand in for. */
  public static final String MISSING_KEY =
      API_KEY
          + " is not set: set it to your Cinch API key (it looks like"
          + " cinch_live_...) in the \"env\" block of this server's entry in your MCP client's configuration.";

  public static final String DEFAULT_BASE_URL = "https://api.cinch.codes";
  public static final URI DEFAULT_BASE_URI = URI.create(DEFAULT_BASE_URL);
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(20_000);

  public Settings {
    problems = List.copyOf(problems);
  }

  public static Settings fromEnvironment(Map<String, String> env) {
    return SettingsReader.read(env, Runtime.getRuntime().availableProcessors());
  }

  /** Whether only the key is missing, so a local sandbox may stand in for the Cinch API. */
  public boolean onlyKeyMissing() {
    return apiKey.isEmpty() && problems.size() == 1 && problems.contains(MISSING_KEY);
  }

  /** The problems with the sandbox limits alone: they stop the local and docker backends too. */
  public List<String> limitProblems() {
    return problems.stream()
        .filter(
            p ->
                p.startsWith(SandboxLimits.TIME_LIMIT_S + " ")
                    || p.startsWith(SandboxLimits.MEMORY_MB + " ")
                    || p.startsWith(SandboxLimits.CPUS + " "))
        .toList();
  }

  public boolean usable() {
    return problems.isEmpty();
  }

  public URI runUri() {
    return URI.create(baseUri + "/run");
  }

  /** The key appears only as "set". */
  public String describe() {
    return "base URL "
        + baseUri
        + ", timeout "
        + timeout.toMillis()
        + " ms, API key "
        + (apiKey.isPresent() ? "set" : "not set");
  }

  @Override
  public String toString() { // never the key, which a record's own toString would print
    return "Settings[" + describe() + ", problems=" + problems + "]";
  }
}
