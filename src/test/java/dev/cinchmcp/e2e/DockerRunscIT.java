package dev.cinchmcp.e2e;

/** The docker backend's walls with gVisor registered as the engine's runsc runtime. */
class DockerRunscIT extends DockerContainment {
  DockerRunscIT() {
    super("runsc");
  }
}
