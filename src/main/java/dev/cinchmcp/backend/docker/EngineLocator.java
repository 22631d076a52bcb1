package dev.cinchmcp.backend.docker;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Finds the engine as the user's {@code docker} command would: {@code DOCKER_HOST}; else the
 * current Docker context's endpoint; else the usual sockets (or pipes) of Docker Desktop, OrbStack,
 * Colima, Rancher Desktop and Podman on this OS. Files are reached through {@code exists} and
 * {@code reader} (a file's text, or empty), so tests give it any machine's layout.
 */
record EngineLocator(
    Map<String, String> env,
    String osName,
    Predicate<Path> exists,
    Function<Path, Optional<String>> reader) {

  /** Where to look, in order (the first that answers serves), or why the user's setting fails. */
  record Located(List<EngineAddress> candidates, String problem) {}

  EngineLocator {
    osName = osName.toLowerCase(Locale.ROOT);
  }

  static EngineLocator forThisMachine(Map<String, String> env, String osName) {
    return new EngineLocator(
        env,
        osName,
        Files::exists,
        path -> {
          try {
            return Files.isRegularFile(path)
                ? Optional.of(Files.readString(path, StandardCharsets.UTF_8))
                : Optional.empty();
          } catch (IOException | RuntimeException e) {
            return Optional.empty();
          }
        });
  }

  /** The first candidate that answers a ping (quick), or empty. */
  Optional<EngineAddress> firstAnswering(ScheduledExecutorService timers) {
    return locate().candidates().stream()
        .filter(address -> Engine.answers(address, timers))
        .findFirst();
  }

  /** Connects to the first candidate that answers; else the exception says why, for the user. */
  Engine connect(ScheduledExecutorService timers) throws IOException {
    Located located = locate();
    if (located.problem() != null) {
      throw new IOException(located.problem());
    }
    List<String> tried = new ArrayList<>();
    for (EngineAddress address : located.candidates()) {
      if (Engine.answers(address, timers)) {
        try {
          return Engine.connect(address, timers);
        } catch (IOException e) {
          throw new IOException("the engine at " + address.uri() + " failed: " + e.getMessage(), e);
        }
      }
      tried.add(address.toString());
    }
    if (tried.isEmpty()) {
      throw new IOException(
          "no container engine was found (no DOCKER_HOST, no Docker context, none of the usual"
              + " sockets of Docker Desktop, OrbStack, Colima, Rancher Desktop or Podman): start"
              + " one, or set DOCKER_HOST");
    }
    throw new IOException(
        "no container engine answered at "
            + String.join(", ", tried)
            + ": start it (Docker Desktop, OrbStack, colima start, podman machine start), or check"
            + " that this user may use its socket");
  }

  Located locate() {
    String host = env.getOrDefault("DOCKER_HOST", "").strip();
    if (!host.isEmpty()) {
      return one(host, "DOCKER_HOST");
    }
    Optional<String> context = currentContext();
    if (context.isPresent() && !context.get().equals("default")) {
      Optional<String> endpoint =
          jsonText(contextMeta(context.get()), "Endpoints", "docker", "Host");
      if (endpoint.isEmpty()) {
        return new Located(
            List.of(),
            "the current Docker context \""
                + context.get()
                + "\" has no Docker endpoint in "
                + contextMeta(context.get())
                + " (see docker context ls; switch with docker context use default)");
      }
      return one(endpoint.get(), "Docker context " + context.get());
    }
    return new Located(usual(), null);
  }

  private Located one(String host, String source) {
    String is = source + " is " + host;
    if (host.toLowerCase(Locale.ROOT).startsWith("ssh://")) {
      return new Located(
          List.of(), is + ": an engine over ssh is not supported; use its local socket");
    }
    Optional<EngineAddress> address = EngineAddress.parse(host, source);
    if (address.isEmpty()) {
      return new Located(
          List.of(),
          source
              + " is \""
              + host
              + "\", which is not an address this server can use (unix://, npipe:// or tcp://)");
    }
    String verify = env.getOrDefault("DOCKER_TLS_VERIFY", "").strip();
    if (address.get().kind() == EngineAddress.Kind.TCP
        && !verify.isEmpty()
        && !verify.equals("0")) {
      String why = " with DOCKER_TLS_VERIFY set: an engine over TLS is not supported";
      return new Located(List.of(), is + why + "; use its local socket");
    }
    return new Located(List.of(address.get()), null);
  }

  /** {@code DOCKER_CONTEXT}, else {@code currentContext} of the CLI's config. */
  private Optional<String> currentContext() {
    String named = env.getOrDefault("DOCKER_CONTEXT", "").strip();
    return named.isEmpty()
        ? jsonText(configDir().resolve("config.json"), "currentContext")
        : Optional.of(named);
  }

  /** The text at {@code names} in a JSON file, if the file is there and has it. */
  private Optional<String> jsonText(Path file, String... names) {
    try {
      JsonNode node = Engine.JSON.readTree(reader.apply(file).orElse("{}"));
      for (String name : names) {
        node = node.path(name);
      }
      return Optional.of(node.asText("")).filter(text -> !text.isBlank());
    } catch (IOException | RuntimeException e) { // not JSON (or empty)
      return Optional.empty();
    }
  }

  Path contextMeta(String name) {
    return configDir()
        .resolve("contexts")
        .resolve("meta")
        .resolve(sha256(name))
        .resolve("meta.json");
  }

  private Path configDir() {
    String config = env.getOrDefault("DOCKER_CONFIG", "").strip();
    return config.isEmpty() ? home().resolve(".docker") : Path.of(config);
  }

  private Path home() {
    String home = env.getOrDefault(windows() ? "USERPROFILE" : "HOME", "");
    if (home.isBlank()) {
      home = env.getOrDefault("HOME", System.getProperty("user.home", "."));
    }
    return Path.of(home);
  }

  private boolean windows() {
    return osName.startsWith("windows");
  }

  /** The sockets (or pipes) engines make by default on this OS, those that exist, in order. */
  private List<EngineAddress> usual() {
    if (windows()) { // Docker Desktop and Rancher Desktop, then Podman; a pipe is tried, not sought
      return List.of(
          new EngineAddress(
              EngineAddress.Kind.NPIPE, "\\\\.\\pipe\\docker_engine", "Docker Desktop's pipe"),
          new EngineAddress(
              EngineAddress.Kind.NPIPE, "\\\\.\\pipe\\podman-machine-default", "Podman's pipe"));
    }
    List<EngineAddress> out = new ArrayList<>();
    String home = home() + "/";
    String run = env.getOrDefault("XDG_RUNTIME_DIR", "").strip();
    String tmp = env.getOrDefault("TMPDIR", "").strip();
    String machine = "Podman machine's socket";
    socket(out, "/var/run/docker.sock", "the system socket");
    if (osName.startsWith("mac") || osName.startsWith("darwin")) {
      socket(out, home + ".docker/run/docker.sock", "Docker Desktop's socket");
      socket(out, home + ".orbstack/run/docker.sock", "OrbStack's socket");
      socket(out, home + ".colima/default/docker.sock", "Colima's socket");
      socket(out, home + ".rd/docker.sock", "Rancher Desktop's socket");
      socket(out, home + ".local/share/containers/podman/machine/podman.sock", machine);
      socket(out, home + ".local/share/containers/podman/machine/qemu/podman.sock", machine);
      // Podman 5 with Apple's hypervisor: $TMPDIR/podman/<machine>-api.sock.
      socket(out, tmp.isEmpty() ? null : tmp + "/podman/podman-machine-default-api.sock", machine);
    } else {
      socket(out, run.isEmpty() ? null : run + "/docker.sock", "rootless Docker's socket");
      socket(out, home + ".docker/desktop/docker.sock", "Docker Desktop's socket");
      socket(out, run.isEmpty() ? null : run + "/podman/podman.sock", "rootless Podman's socket");
      socket(out, "/run/podman/podman.sock", "Podman's socket");
    }
    return out;
  }

  /** Adds the socket at {@code path} (null: none) if it exists. */
  private void socket(List<EngineAddress> out, String path, String source) {
    if (path != null && exists.test(Path.of(path))) {
      out.add(new EngineAddress(EngineAddress.Kind.UNIX, Path.of(path).toString(), source));
    }
  }

  static String sha256(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
