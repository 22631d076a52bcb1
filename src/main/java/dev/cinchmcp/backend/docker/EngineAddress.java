package dev.cinchmcp.backend.docker;

import java.util.Locale;
import java.util.Optional;

/**
 * Where an engine's API listens, as Docker's tools write it ({@code unix:///var/run/docker.sock},
 * {@code npipe:////./pipe/docker_engine}, {@code tcp://127.0.0.1:2375}).
 *
 * @param target the socket's or pipe's path, or {@code host:port}
 * @param source why this address, for messages ("DOCKER_HOST", "OrbStack's socket")
 */
record EngineAddress(Kind kind, String target, String source) {

  public enum Kind {
    UNIX,
    NPIPE,
    TCP
  }

  /**
   * Reads a Docker host address; empty when it is not one this client can use (ssh://, a TLS
   * endpoint is refused later, when the user asked for it).
   */
  public static Optional<EngineAddress> parse(String host, String source) {
    String text = host.strip();
    String lower = text.toLowerCase(Locale.ROOT);
    if (lower.startsWith("unix://") || lower.startsWith("npipe://")) {
      boolean unix = lower.startsWith("unix://");
      // npipe:////./pipe/docker_engine names \\.\pipe\docker_engine.
      String path = unix ? text.substring(7) : text.substring(8).replace('/', '\\');
      return path.isEmpty()
          ? Optional.empty()
          : Optional.of(new EngineAddress(unix ? Kind.UNIX : Kind.NPIPE, path, source));
    }
    if (lower.startsWith("tcp://")) {
      String rest = text.substring("tcp://".length()).split("/", 2)[0];
      if (rest.isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(
          new EngineAddress(Kind.TCP, rest.contains(":") ? rest : rest + ":2375", source));
    }
    return Optional.empty();
  }

  public String uri() {
    return switch (kind) {
      case UNIX -> "unix://" + target;
      case NPIPE -> "npipe://" + target.replace('\\', '/');
      case TCP -> "tcp://" + target;
    };
  }

  @Override
  public String toString() {
    return uri() + " (" + source + ")";
  }
}
