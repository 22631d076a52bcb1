package dev.cinchmcp.e2e;

/** The docker backend's walls with the engine's plain runtime (asked for by name, as on Linux). */
class DockerRuncIT extends DockerContainment {
  DockerRuncIT() {
    super("runc");
  }
}
