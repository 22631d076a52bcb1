package dev.cinchmcp.backend.docker;

import java.util.Optional;

/**
 * An Engine API version such as 1.41, and the negotiation Docker's own client does: the lower of
 * what this client speaks and what the engine speaks, but never below the engine's minimum.
 * Debian's dockerd 20.10 and Podman 4 speak 1.41 at most; Docker Engine 29 (current Docker Desktop)
 * refuses clients below 1.44.
 */
record ApiVersion(int major, int minor) implements Comparable<ApiVersion> {

  /** The oldest API this client can use: what Docker 20.10 and Podman 4 speak. */
  static final ApiVersion OLDEST = new ApiVersion(1, 41);

  /** The newest API this client asks for (Docker 27); every field it sends exists from 1.41 on. */
  static final ApiVersion NEWEST = new ApiVersion(1, 47);

  /** "1.41" (a null or anything else: empty). */
  static Optional<ApiVersion> parse(String text) {
    try {
      String[] parts = text.strip().split("\\.", 3);
      return Optional.of(new ApiVersion(Integer.parseInt(parts[0]), Integer.parseInt(parts[1])));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /**
   * The version to use with an engine that speaks up to {@code engineMax} and at least {@code
   * engineMin} (null when it does not say); empty when the two ranges do not meet.
   */
  static Optional<ApiVersion> negotiate(ApiVersion engineMax, ApiVersion engineMin) {
    ApiVersion chosen = engineMax.compareTo(NEWEST) < 0 ? engineMax : NEWEST;
    if (engineMin != null && chosen.compareTo(engineMin) < 0) {
      chosen = engineMin; // newer than this client asks for, but the engine takes nothing older
    }
    if (chosen.compareTo(OLDEST) < 0 || chosen.compareTo(engineMax) > 0) {
      return Optional.empty();
    }
    return Optional.of(chosen);
  }

  /** The path prefix of every versioned request, e.g. "/v1.41". */
  String prefix() {
    return "/v" + this;
  }

  @Override
  public int compareTo(ApiVersion other) {
    return major != other.major
        ? Integer.compare(major, other.major)
        : Integer.compare(minor, other.minor);
  }

  @Override
  public String toString() {
    return major + "." + minor;
  }
}
