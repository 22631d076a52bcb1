/**
 * The docker backend: each program runs in a container of a Docker-compatible engine, which is how
 * users of macOS and Windows get a sandbox with no account (the engine runs its own Linux VM).
 * {@link dev.cinchmcp.backend.docker.DockerRunner} is the door.
 *
 * <p>The client is its own, HTTP/1.1 over the JDK's unix-domain {@code SocketChannel} ({@link
 * dev.cinchmcp.backend.docker.EngineHttp}), not docker-java. Measured (dockerd 20.10, runc, {@code
 * print(6*7)}, a loaded 2-core machine): docker-java 3.4.2 with httpclient5 brings 21 MB of jars
 * (19.6 MB beyond what we ship) and Jackson 2.10 against our 2.21; its client and first ping took
 * 370-810 ms in a fresh JVM and its first call 570-700 ms, against 520-700 ms for our start (ping,
 * version, info, two image look-ups) and 310-330 ms for our first call.
 */
package dev.cinchmcp.backend.docker;
