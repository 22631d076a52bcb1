package dev.cinchmcp.config;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the docker backend is told by the environment: its images, the runtime asked for, the
 * containers it starts ahead of time, and the variables by which Docker's own tools find the
 * engine.
 *
 * @param pythonImage {@code CINCH_DOCKER_PYTHON_IMAGE}, or the default
 * @param nodeImage {@code CINCH_DOCKER_NODE_IMAGE}, or the default
 * @param runtime {@code CINCH_DOCKER_RUNTIME}: the engine runtime to use by name, or empty for the
 *     automatic choice (gVisor when offered)
 * @param discovery the environment engine discovery reads ({@link #DISCOVERY}), as set
 * @param pool {@code CINCH_DOCKER_POOL}: containers per language started ahead of time (0: none)
 */
public record DockerOptions(
    String pythonImage,
    String nodeImage,
    Optional<String> runtime,
    Map<String, String> discovery,
    int pool) {

  public static final String PYTHON_IMAGE = "CINCH_DOCKER_PYTHON_IMAGE";
  public static final String DEFAULT_PYTHON_IMAGE = "python:3.12-slim";
  public static final String NODE_IMAGE = "CINCH_DOCKER_NODE_IMAGE";
  public static final String DEFAULT_NODE_IMAGE = "node:22-slim";
  public static final String RUNTIME = "CINCH_DOCKER_RUNTIME";

  /**
   * Containers per language started ahead of time: by default one (it takes the container's start
   * off sequential calls), at most 8 (each waiting container holds its interpreter's memory).
   */
  public static final String POOL = "CINCH_DOCKER_POOL";

  public static final int DEFAULT_POOL = 1;
  public static final int MAX_POOL = 8;

  /** The variables by which Docker's tools find the engine, and the homes they look in. */
  static final List<String> DISCOVERY =
      List.of(
          "DOCKER_HOST",
          "DOCKER_CONTEXT",
          "DOCKER_CONFIG",
          "DOCKER_TLS_VERIFY",
          "HOME",
          "USERPROFILE",
          "XDG_RUNTIME_DIR",
          "TMPDIR");

  public DockerOptions {
    discovery = Map.copyOf(discovery);
  }
}
