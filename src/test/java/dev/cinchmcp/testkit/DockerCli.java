package dev.cinchmcp.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cinchmcp.backend.SandboxFacts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The test engine as the docker command line sees it: what this backend left there, and the jar's
 * environment for serving from it.
 */
public final class DockerCli {

  private DockerCli() {}

  /**
   * The jar's environment: the docker backend on the test engine, with this runtime, every program
   * in a fresh container (no containers started ahead: these tests are about that path; DockerPool
   * tests the other).
   */
  public static Map<String, String> jarEnvironment(String runtime) {
    return jarEnvironment(runtime, 0);
  }

  /** The same, with {@code pool} containers per language started ahead of time. */
  public static Map<String, String> jarEnvironment(String runtime, int pool) {
    return Map.of(
        "CINCH_BACKEND",
        "docker",
        "CINCH_FAST_START",
        "0",
        "DOCKER_HOST",
        TestEngine.host(),
        "CINCH_DOCKER_PYTHON_IMAGE",
        TestEngine.image(),
        "CINCH_DOCKER_NODE_IMAGE",
        TestEngine.image(),
        "CINCH_DOCKER_RUNTIME",
        runtime,
        "CINCH_DOCKER_POOL",
        Integer.toString(pool));
  }

  /**
   * The containers of this backend that are running, as "name interpreter" (python3 or node, from
   * their command).
   */
  public static List<String> runningWithInterpreter() throws IOException, InterruptedException {
    return docker(
            "ps",
            "--no-trunc",
            "--filter",
            "label=dev.cinchmcp.owner",
            "--filter",
            "status=running",
            "--format",
            "{{.Names}} {{.Command}}")
        .stream()
        .map(
            line -> {
              String name = line.split(" ", 2)[0];
              return name + (line.contains(" python3 ") ? " python3" : " node");
            })
        .toList();
  }

  /** Every container (running or not) of this backend, of any server: their names. */
  public static List<String> containers() throws IOException, InterruptedException {
    return docker("ps", "-a", "--filter", "label=dev.cinchmcp.owner", "--format", "{{.Names}}");
  }

  /** The runtimes the engine offers. */
  public static String runtimes() throws IOException, InterruptedException {
    return String.join(
        " ", docker("info", "--format", "{{range $k, $v := .Runtimes}}{{$k}} {{end}}"));
  }

  /** Waits until no container of this backend is left, up to {@code limit}; those left then. */
  public static List<String> awaitNoContainers(Duration limit) throws Exception {
    Await.holdsWithin(() -> containers().isEmpty(), limit);
    return containers();
  }

  /**
   * How many containers the server runs at once: 4, unless its ready line says fewer (a machine of
   * two cores or less whose kernel the engine shares).
   */
  public static int atOnce(JarProcess jar) throws Exception {
    Await.until(
        () -> jar.stderr().contains("ready on stdio"),
        Duration.ofSeconds(30),
        () -> "the ready line; stderr:\n" + jar.stderr());
    Matcher said = Pattern.compile("(\\d+) containers? at once").matcher(jar.stderr());
    return said.find() ? Integer.parseInt(said.group(1)) : SandboxFacts.MAX_CONCURRENT;
  }

  public static void assertNoContainers(Duration limit) throws Exception {
    assertEquals(List.of(), awaitNoContainers(limit), "containers left behind");
  }

  public static List<String> docker(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("docker"));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().put("DOCKER_HOST", TestEngine.host());
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IOException("docker " + String.join(" ", args) + " failed: " + out);
    }
    return out.lines().map(String::strip).filter(line -> !line.isEmpty()).toList();
  }

  /** Waits until the container has run for {@code age}, as the engine counts it. */
  public static void awaitAge(String container, Duration age) throws Exception {
    Instant started =
        Instant.parse(docker("inspect", "-f", "{{.State.StartedAt}}", container).get(0));
    Await.until(
        () -> Instant.now().isAfter(started.plus(age)),
        age.plusSeconds(30),
        () -> container + " to be " + age + " old");
  }

  /** Waits until the container's program has printed {@code text} (the engine logs its output). */
  public static void awaitPrinted(String container, String text) throws Exception {
    Await.until(
        () -> String.join("\n", docker("logs", container)).contains(text),
        Duration.ofSeconds(30),
        () -> container + " to print " + text);
  }
}
