package dev.cinchmcp.e2e;

/** The docker backend's containers started ahead of time, on the engine's runsc runtime. */
class DockerPoolRunscIT extends DockerPool {
  DockerPoolRunscIT() {
    super("runsc");
  }
}
