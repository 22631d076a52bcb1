package dev.cinchmcp.config;

import java.util.Arrays;
import java.util.Optional;

/** Which backend runs the code ({@code CINCH_BACKEND}). */
public enum Backend {
  /** The Cinch API with a key, else the local gVisor sandbox if it works, else an engine. */
  AUTO,
  /** The Cinch API (needs {@code CINCH_API_KEY}). */
  CINCH,
  /** A local gVisor sandbox (needs gVisor's {@code runsc}; Linux only). */
  LOCAL,
  /** A container of a Docker-compatible engine (Docker Desktop, OrbStack, Colima, Podman...). */
  DOCKER;

  static Optional<Backend> parse(String text) {
    return Arrays.stream(values()).filter(b -> b.name().equalsIgnoreCase(text.strip())).findFirst();
  }
}
