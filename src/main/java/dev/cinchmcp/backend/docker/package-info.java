/**
 * The docker backend: each program runs once in a fresh container of a Docker-compatible engine
 * (Docker Engine, Docker Desktop, OrbStack, Colima, Rancher Desktop, Podman), which is how users of
 * macOS and Windows get a sandbox on their own machine with no account: the engine runs its
 * containers in its own Linux VM.
 *
 * <p>Use: {@code DockerRunner.start(settings, poolSize, after)} reaches the engine at once (found
 * as the user's {@code docker} command would find it, {@link
 * dev.cinchmcp.backend.docker.EngineLocator}), negotiates the API version ({@link
 * dev.cinchmcp.backend.docker.ApiVersion}), learns its runtimes and picks one ({@link
 * dev.cinchmcp.backend.docker.RuntimeChoice}); then {@code usable()}, {@code summary()}, {@code
 * isolation()} and {@code limits()} for the ready line, {@code --check} and the tool's description.
 *
 * <p>{@code CINCH_DOCKER_POOL} containers per language are started ahead of time ({@link
 * dev.cinchmcp.backend.docker.WaitingContainer}, held by the local backend's {@link
 * dev.cinchmcp.backend.WarmPool}): a call that finds one hands it its program down the open attach
 * stream ({@link dev.cinchmcp.backend.docker.WaitingLaunchers}) and pays for its program alone;
 * {@code DockerPoolRuncIT} and {@code DockerPoolRunscIT} test what it keeps.
 *
 * <p>The walls are the local backend's, each a field of the container ({@link
 * dev.cinchmcp.backend.docker.ContainerSpec}); {@code DockerRuncIT} and {@code DockerRunscIT} try
 * each one through the built jar, {@code DockerLifetimeIT} what is left after a time-out, cancel,
 * SIGTERM and SIGKILL (nothing).
 *
 * <p>The client is its own: HTTP/1.1 over the JDK's unix-domain {@code SocketChannel} ({@link
 * dev.cinchmcp.backend.docker.EngineHttp}, about 150 KB of classes in all with the backend), not
 * docker-java. Measured here (dockerd 20.10, runc, the same {@code print(6*7)}, a loaded 2-core
 * machine): docker-java 3.4.2 with its httpclient5 transport brings 21 MB of jars (19.6 MB beyond
 * the Jackson and SLF4J we ship: Bouncy Castle 10 MB, Guava, JNA, commons-*, httpclient5), would
 * nearly quintuple the 5.4 MB jar and pull Jackson 2.10 against our 2.21; its client and first ping
 * took 370-810 ms in a fresh JVM and its first call 570-700 ms (later calls 280-340 ms), against
 * 520-700 ms for our start (ping, version, info and two image look-ups, most of it Jackson's first
 * use, which the server pays anyway) and 310-330 ms for our first call (later 200-270 ms). Nothing
 * of either is loaded unless the docker backend is chosen.
 */
package dev.cinchmcp.backend.docker;
