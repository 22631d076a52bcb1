package dev.cinchmcp.e2e;

/** The docker backend's containers started ahead of time, on the engine's runc runtime. */
class DockerPoolRuncIT extends DockerPool {
  DockerPoolRuncIT() {
    super("runc");
  }
}
