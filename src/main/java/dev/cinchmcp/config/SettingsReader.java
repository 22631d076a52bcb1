package dev.cinchmcp.config;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Turns environment variables into {@link Settings}, collecting every problem: each names the
 * variable, the value and what is allowed, and the default stands in meanwhile.
 */
final class SettingsReader {

  private static final String APPLIES =
      " in a local or docker sandbox (the hosted Cinch service keeps its own limits);";

  private final Map<String, String> env;
  private final List<String> problems = new ArrayList<>();

  private SettingsReader(Map<String, String> env) {
    this.env = env;
  }

  /** {@code cores}: the machine's, the most {@value SandboxLimits#CPUS} may give a sandbox. */
  static Settings read(Map<String, String> env, int cores) {
    SettingsReader r = new SettingsReader(env); // arguments read in order: problems in that order
    return new Settings(
        r.readKey(),
        r.readBaseUri(),
        Duration.ofMillis(
            r.readWhole(
                Settings.TIMEOUT_MS,
                " of milliseconds",
                1,
                999_999_999_999L,
                Settings.DEFAULT_TIMEOUT.toMillis(),
                "how long to wait for the answer to one run at the Cinch API;")),
        r.problems,
        r.readBackend(),
        Objects.requireNonNullElse(r.value(Settings.RUNSC), "runsc"),
        r.readDocker(),
        r.readPool(
            Settings.LOCAL_POOL,
            Settings.DEFAULT_LOCAL_POOL,
            Settings.MAX_LOCAL_POOL,
            "how many local sandboxes per language wait started for a call"),
        new SandboxLimits(
            (int)
                r.readWhole(
                    SandboxLimits.TIME_LIMIT_S,
                    " of seconds",
                    SandboxLimits.MIN_TIME_LIMIT_SECONDS,
                    SandboxLimits.MAX_TIME_LIMIT_SECONDS,
                    SandboxLimits.SERVICE.timeLimitSeconds(),
                    "how long a program may run" + APPLIES),
            (int)
                r.readWhole(
                    SandboxLimits.MEMORY_MB,
                    " of megabytes",
                    SandboxLimits.MIN_MEMORY_MEGABYTES,
                    SandboxLimits.MAX_MEMORY_MEGABYTES,
                    SandboxLimits.SERVICE.memoryMegabytes(),
                    "the memory a program may use" + APPLIES),
            r.readCpus(cores)));
  }

  /** The variable's value, stripped; null when unset or blank. */
  private String value(String variable) {
    String raw = env.get(variable);
    return raw == null || raw.isBlank() ? null : raw.strip();
  }

  private long readWhole(
      String variable, String unit, long min, long max, long fallback, String what) {
    String text = value(variable);
    long value = text == null ? fallback : digits(text, 1, 12) ? Long.parseLong(text) : -1;
    if (value >= min && value <= max) {
      return value;
    }
    problems.add(
        "%s must be a whole number%s from %d to %d (was \"%s\"): %s unset means %d."
            .formatted(variable, unit, min, max, text, what, fallback));
    return fallback;
  }

  private int readPool(String variable, int fallback, int max, String what) {
    return (int) readWhole(variable, "", 0, max, fallback, what + "; 0 turns this off,");
  }

  /** "2", "0.5", "1.25": no exponents, signs or "NaN", what a person writes in a configuration. */
  private double readCpus(int cores) {
    String text = value(SandboxLimits.CPUS);
    double fallback = SandboxLimits.SERVICE.cpus();
    String[] parts = text == null ? null : text.split("\\.", -1);
    double value =
        text == null
            ? fallback
            : parts.length <= 2 && digits(parts[0], 1, 4) && digits(parts[parts.length - 1], 1, 6)
                ? Double.parseDouble(text)
                : 0;
    if (value >= SandboxLimits.MIN_CPUS && value <= cores) {
      return value;
    }
    problems.add(
        ("%s must be a number of CPUs from %s to %d (this machine's core%s), e.g. 1 or 1.5 (was"
                + " \"%s\"): the CPU a program may use%s unset means %s.")
            .formatted(
                SandboxLimits.CPUS,
                SandboxLimits.number(SandboxLimits.MIN_CPUS),
                cores,
                cores == 1 ? "" : "s",
                text,
                APPLIES,
                SandboxLimits.number(fallback)));
    return fallback;
  }

  private Backend readBackend() {
    String text = value(Settings.BACKEND);
    Optional<Backend> backend = text == null ? Optional.of(Backend.AUTO) : Backend.parse(text);
    if (backend.isEmpty()) {
      problems.add(
          ("%s must be auto, cinch, local or docker (was \"%s\"): leave it unset for auto (the"
                  + " Cinch API when a key is set, else a local gVisor sandbox, else a container"
                  + " engine).")
              .formatted(Settings.BACKEND, text));
    }
    return backend.orElse(Backend.AUTO);
  }

  private DockerOptions readDocker() {
    Map<String, String> discovery = new HashMap<>(env);
    discovery.keySet().retainAll(DockerOptions.DISCOVERY);
    return new DockerOptions(
        readName(DockerOptions.PYTHON_IMAGE, DockerOptions.DEFAULT_PYTHON_IMAGE),
        readName(DockerOptions.NODE_IMAGE, DockerOptions.DEFAULT_NODE_IMAGE),
        Optional.ofNullable(readName(DockerOptions.RUNTIME, null)),
        discovery,
        readPool(
            DockerOptions.POOL,
            DockerOptions.DEFAULT_POOL,
            DockerOptions.MAX_POOL,
            "how many containers per language the docker backend starts ahead of time for the next"
                + " call"));
  }

  /** {@code fallback} null: no default (e.g. the runtime). */
  private String readName(String variable, String fallback) {
    String text = value(variable);
    if (text == null || text.chars().noneMatch(c -> c <= 0x20 || c == 0x7f)) {
      return text == null ? fallback : text;
    }
    problems.add(
        "%s must be one name with no spaces (was \"%s\"): e.g. %s, or leave it unset%s"
            .formatted(
                variable,
                text,
                fallback == null ? "runsc" : fallback,
                fallback == null ? "." : " for that default."));
    return fallback;
  }

  private Optional<String> readKey() {
    String key = value(Settings.API_KEY);
    if (key == null) {
      problems.add(Settings.MISSING_KEY);
      return Optional.empty();
    }
    if (key.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
      // They would make an invalid header; the value itself is not shown.
      problems.add(
          Settings.API_KEY
              + " contains spaces, line breaks or non-ASCII characters: copy the key again,"
              + " without quotes or extra text.");
      return Optional.empty();
    }
    return Optional.of(key);
  }

  private URI readBaseUri() {
    String text = value(Settings.BASE_URL);
    if (text == null) {
      return Settings.DEFAULT_BASE_URI;
    }
    while (text.endsWith("/")) {
      text = text.substring(0, text.length() - 1);
    }
    String shown = withoutUserInfo(env.get(Settings.BASE_URL));
    String problem;
    try {
      URI uri = new URI(text);
      problem = baseUriProblem(uri, shown);
      if (problem == null) {
        return uri;
      }
    } catch (URISyntaxException e) {
      problem = " is not a valid URL (was \"" + shown + "\").";
    }
    problems.add(
        "%s%s Set it to the API's address, e.g. %s, or leave it unset for that default."
            .formatted(Settings.BASE_URL, problem, Settings.DEFAULT_BASE_URI));
    return Settings.DEFAULT_BASE_URI;
  }

  /** What is wrong with a base URL that parses, or null. */
  private static String baseUriProblem(URI uri, String shown) {
    boolean http = "http".equalsIgnoreCase(uri.getScheme());
    if (uri.getHost() == null || !(http || "https".equalsIgnoreCase(uri.getScheme()))) {
      return " must be an http(s) URL with a host (was \"" + shown + "\").";
    }
    if (uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
      return " must not carry a query, fragment, user name or password."; // may hold a password
    }
    return http && !isLoopback(uri.getHost())
        ? " uses plain http to %s, which would send the API key across the network in clear: use"
                .formatted(uri.getHost())
            + " https (plain http is allowed only for localhost / 127.0.0.1 / [::1])."
        : null;
  }

  /** The value with any user name and password before an '@' in its authority as ***. */
  static String withoutUserInfo(String raw) {
    int start = raw.indexOf("//");
    start = start < 0 ? 0 : start + 2;
    int end = start;
    while (end < raw.length() && "/?#".indexOf(raw.charAt(end)) < 0) {
      end++;
    }
    int at = raw.lastIndexOf('@', end - 1);
    return at < start ? raw : raw.substring(0, start) + "***" + raw.substring(at);
  }

  /** Loopback by literal name or address only: no DNS look-up at start (it could hang or lie). */
  static boolean isLoopback(String host) {
    String h = host.toLowerCase(Locale.ROOT);
    if (h.startsWith("[") && h.endsWith("]")) {
      h = h.substring(1, h.length() - 1);
    }
    // Plain loops, not regular expressions: java.util.regex costs a fresh JVM several ms.
    String[] groups = h.split("\\.", -1);
    boolean dottedQuad = groups.length == 4 && Arrays.stream(groups).allMatch(g -> digits(g, 1, 3));
    try {
      return h.equals("localhost")
          || h.endsWith(".localhost")
          || (h.contains(":") || dottedQuad) && InetAddress.getByName(h).isLoopbackAddress();
    } catch (UnknownHostException e) { // a literal: parsed, never looked up
      return false;
    }
  }

  private static boolean digits(String text, int min, int max) {
    return text.length() >= min
        && text.length() <= max
        && text.chars().allMatch(c -> c >= '0' && c <= '9');
  }
}
