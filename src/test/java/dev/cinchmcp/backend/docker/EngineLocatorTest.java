package dev.cinchmcp.backend.docker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Where the engine is looked for on each OS, with a machine's files given as a map: macOS and
 * Windows layouts, contexts and DOCKER_HOST cannot be made real here.
 */
class EngineLocatorTest {

  private final Map<String, String> env = new HashMap<>();
  private final Set<String> sockets = new HashSet<>();
  private final Map<String, String> files = new HashMap<>();

  private EngineLocator.Located locate(String os) {
    return new EngineLocator(
            env,
            os,
            path -> sockets.contains(path.toString()),
            path -> Optional.ofNullable(files.get(path.toString())))
        .locate();
  }

  private static List<String> uris(EngineLocator.Located located) {
    return located.candidates().stream().map(EngineAddress::uri).toList();
  }

  /** On this OS the engine is looked for at these addresses, in this order. */
  private void assertCandidates(String os, String... uris) {
    assertEquals(List.of(uris), uris(locate(os)));
  }

  /** On this OS the engine is looked for at this address alone, found through {@code source}. */
  private void assertOnlyCandidate(String os, String uri, String source) {
    EngineLocator.Located located = locate(os);
    assertEquals(List.of(uri), uris(located));
    assertEquals(source, located.candidates().get(0).source());
  }

  @Test
  void dockerHostComesFirstAndAlone() {
    env.put("HOME", "/Users/ann");
    env.put("DOCKER_HOST", "unix:///Users/ann/.colima/work/docker.sock");
    sockets.add("/Users/ann/.docker/run/docker.sock");
    assertOnlyCandidate("Mac OS X", "unix:///Users/ann/.colima/work/docker.sock", "DOCKER_HOST");
  }

  @Test
  void onMacosTheUsualSocketsThatExistInOrder() {
    env.put("HOME", "/Users/ann");
    sockets.add("/Users/ann/.orbstack/run/docker.sock");
    sockets.add("/Users/ann/.docker/run/docker.sock");
    sockets.add("/Users/ann/.colima/default/docker.sock");
    EngineLocator.Located located = locate("Mac OS X");
    assertEquals(
        List.of(
            "unix:///Users/ann/.docker/run/docker.sock",
            "unix:///Users/ann/.orbstack/run/docker.sock",
            "unix:///Users/ann/.colima/default/docker.sock"),
        uris(located));
    assertNull(located.problem());
  }

  @Test
  void onMacosPodmanMachineAndRancherDesktop() {
    env.put("HOME", "/Users/ann");
    sockets.add("/Users/ann/.rd/docker.sock");
    sockets.add("/Users/ann/.local/share/containers/podman/machine/podman.sock");
    assertCandidates(
        "Mac OS X",
        "unix:///Users/ann/.rd/docker.sock",
        "unix:///Users/ann/.local/share/containers/podman/machine/podman.sock");
  }

  @Test
  void onMacosPodman5sSocketInTmpdir() {
    env.put("HOME", "/Users/ann");
    env.put("TMPDIR", "/var/folders/xy/T/");
    sockets.add("/var/folders/xy/T/podman/podman-machine-default-api.sock");
    assertCandidates("Mac OS X", "unix:///var/folders/xy/T/podman/podman-machine-default-api.sock");
  }

  @Test
  void onWindowsTheNamedPipesOfDockerDesktopAndPodman() {
    env.put("USERPROFILE", "C:\\Users\\ann");
    EngineLocator.Located located = locate("Windows 11");
    assertEquals(
        List.of("npipe:////./pipe/docker_engine", "npipe:////./pipe/podman-machine-default"),
        uris(located));
    assertEquals("\\\\.\\pipe\\docker_engine", located.candidates().get(0).target());
  }

  @Test
  void aWindowsDockerHostPipeIsReadAsAPipe() {
    env.put("DOCKER_HOST", "npipe:////./pipe/dockerDesktopLinuxEngine");
    EngineAddress address = locate("Windows 10").candidates().get(0);
    assertEquals(EngineAddress.Kind.NPIPE, address.kind());
    assertEquals("\\\\.\\pipe\\dockerDesktopLinuxEngine", address.target());
  }

  @Test
  void onLinuxTheSystemSocketThenRootlessDockerThenPodman() {
    env.put("HOME", "/home/ann");
    env.put("XDG_RUNTIME_DIR", "/run/user/1000");
    sockets.add("/var/run/docker.sock");
    sockets.add("/run/user/1000/docker.sock");
    sockets.add("/run/user/1000/podman/podman.sock");
    assertCandidates(
        "Linux",
        "unix:///var/run/docker.sock",
        "unix:///run/user/1000/docker.sock",
        "unix:///run/user/1000/podman/podman.sock");
  }

  @Test
  void theCurrentContextOfTheCliConfigNamesTheEngine() {
    env.put("HOME", "/Users/ann");
    sockets.add("/Users/ann/.docker/run/docker.sock");
    files.put("/Users/ann/.docker/config.json", "{\"auths\":{},\"currentContext\":\"colima\"}");
    files.put(
        "/Users/ann/.docker/contexts/meta/" + EngineLocator.sha256("colima") + "/meta.json",
        "{\"Name\":\"colima\",\"Endpoints\":{\"docker\":{\"Host\":"
            + "\"unix:///Users/ann/.colima/default/docker.sock\",\"SkipTLSVerify\":false}}}");
    assertOnlyCandidate(
        "Mac OS X", "unix:///Users/ann/.colima/default/docker.sock", "Docker context colima");
  }

  @Test
  void dockerContextAndDockerConfigOverrideTheConfigFile() {
    env.put("HOME", "/home/ann");
    env.put("DOCKER_CONFIG", "/etc/ann-docker");
    env.put("DOCKER_CONTEXT", "rootless");
    files.put(
        "/etc/ann-docker/contexts/meta/" + EngineLocator.sha256("rootless") + "/meta.json",
        "{\"Endpoints\":{\"docker\":{\"Host\":\"unix:///run/user/1000/docker.sock\"}}}");
    assertCandidates("Linux", "unix:///run/user/1000/docker.sock");
  }

  @Test
  void theDefaultContextMeansTheUsualSockets() {
    env.put("HOME", "/home/ann");
    sockets.add("/var/run/docker.sock");
    files.put("/home/ann/.docker/config.json", "{\"currentContext\":\"default\"}");
    assertCandidates("Linux", "unix:///var/run/docker.sock");
  }

  @Test
  void aContextWithoutItsMetaFileIsAProblemThatSaysWhatToDo() {
    env.put("HOME", "/home/ann");
    env.put("DOCKER_CONTEXT", "gone");
    EngineLocator.Located located = locate("Linux");
    assertTrue(located.candidates().isEmpty());
    assertTrue(located.problem().contains("docker context use default"), located.problem());
  }

  @Test
  void sshAndTlsAreRefusedWithTheReason() {
    env.put("DOCKER_HOST", "ssh://ann@build-box");
    assertTrue(locate("Linux").problem().contains("over ssh is not supported"));
    env.put("DOCKER_HOST", "tcp://10.0.0.5:2376");
    env.put("DOCKER_TLS_VERIFY", "1");
    assertTrue(locate("Linux").problem().contains("over TLS is not supported"));
  }

  @Test
  void aPlainTcpHostGetsDockersDefaultPort() {
    env.put("DOCKER_HOST", "tcp://127.0.0.1");
    assertCandidates("Linux", "tcp://127.0.0.1:2375");
  }

  @Test
  void nothingFoundIsAnEmptyListNotAProblem() {
    env.put("HOME", "/home/ann");
    EngineLocator.Located located = locate("Linux");
    assertEquals(List.of(), located.candidates());
    assertNull(located.problem());
    assertEquals(
        Path.of("/home/ann/.docker/contexts/meta/" + EngineLocator.sha256("x") + "/meta.json"),
        new EngineLocator(env, "Linux", p -> false, p -> Optional.empty()).contextMeta("x"));
  }
}
