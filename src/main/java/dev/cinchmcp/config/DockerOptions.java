package dev.cinchmcp.config;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the environment tells the docker backend: the runtime by name (empty: gVisor if offered),
 * the variables of {@link #DISCOVERY} that are set, containers started ahead per language.
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

  /** One takes the container's start off sequential calls; each holds an interpreter's memory. */
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
