/**
 * The docker backend: each program runs in a container of a Docker-compatible engine (on macOS and
 * Windows a sandbox with no account); {@link dev.cinchmcp.backend.docker.DockerRunner} is the door.
 * Its HTTP client is its own ({@link dev.cinchmcp.backend.docker.EngineHttp}), not docker-java:
 * measured (dockerd 20.10, runc, a loaded 2-core machine), docker-java 3.4.2 brings 19.6 MB of jars
 * beyond ours and took 370-810 ms to its first ping, 570-700 ms for its first call, against 520-700
 * ms for our whole start and 310-330 ms for our first call.
 */
package dev.cinchmcp.backend.docker;
