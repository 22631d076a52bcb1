package dev.cinchmcp.e2e;

import static dev.cinchmcp.testkit.Requires.Need.ENGINE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.SandboxFacts;
import dev.cinchmcp.testkit.Await;
import dev.cinchmcp.testkit.DockerCli;
import dev.cinchmcp.testkit.JarProcess;
import dev.cinchmcp.testkit.Requires;
import dev.cinchmcp.testkit.TestEngine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * No container outlives its limits, whatever happens to the server: after a SIGKILL of the JVM its
 * container is ended by the backstop inside it and removed by the engine; after a SIGTERM with runs
 * in flight, and after a cancel, none is left; what a dead server left is removed at the next
 * start. On runc and on runsc.
 */
@Requires(ENGINE)
class DockerLifetimeIT {

  private static final String SPIN = "print('spinning', flush=True)\nwhile True:\n    pass";

  /** A server with this runtime, initialized, once no container of an earlier test is left. */
  private static JarProcess server(String runtime) throws Exception {
    DockerCli.assertNoContainers(Duration.ofSeconds(15));
    return JarProcess.start(DockerCli.jarEnvironment(runtime)).initialized();
  }

  @ParameterizedTest
  @ValueSource(strings = {"runc", "runsc"})
  void aSigkilledServersContainerIsGoneAfterItsWallClock(String runtime) throws Exception {
    try (JarProcess jar = server(runtime)) {
      jar.send(JarProcess.call(1, SPIN, "p1"));
      long sent = System.nanoTime();
      awaitRunning(jar);
      jar.process().destroyForcibly(); // SIGKILL: no shutdown hook, no clean-up of the JVM's own
      jar.process().waitFor();
      assertFalse(DockerCli.containers().isEmpty(), "the test proves nothing");
      // 10 s wall clock + the 1 s backstop grace + 3 s for the engine and a busy machine.
      Duration left = Duration.ofSeconds(14).minusNanos(System.nanoTime() - sent);
      DockerCli.assertNoContainers(left);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"runc", "runsc"})
  void aSigtermWithRunsInFlightKillsEveryContainer(String runtime) throws Exception {
    try (JarProcess jar = server(runtime)) {
      int atOnce = sendFourSpins(jar);
      awaitRunning(jar, atOnce);
      jar.process().destroy(); // SIGTERM
      // It sends the engine a kill for each container, then ends itself (SIGKILL: their streams
      // were open), without waiting for the answers.
      assertEquals(137, jar.waitForExit(Duration.ofSeconds(30)));
      // Each kill reached the engine: the containers end now, not at their backstop (10 s + 1 s
      // from their start, more than 5 s from here).
      DockerCli.assertNoContainers(Duration.ofSeconds(5));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"runc", "runsc"})
  void aSigtermWhileContainersStartLeavesNoneRunning(String runtime) throws Exception {
    try (JarProcess jar = server(runtime)) {
      int atOnce = sendFourSpins(jar);
      // The signal comes once the engine has them all: their starts are under way (gVisor takes a
      // second or so to start one here), and a kill may reach the engine before its start.
      Await.until(
          () -> DockerCli.containers().size() >= atOnce,
          Duration.ofSeconds(30),
          () -> atOnce + " containers; stderr:\n" + jar.stderr());
      jar.process().destroy(); // SIGTERM
      jar.waitForExit(Duration.ofSeconds(30));
      // Killed, or started after its kill and then given no program: none runs on towards its
      // backstop (10 s + 1 s from its start, more than 6 s from here). One whose start the engine
      // was still carrying out runs for a moment after the server is gone (CI saw one between two
      // looks), so none may be running at two looks a second apart.
      Await.until(
          () -> running().isEmpty() && noneRunningAfter(Duration.ofSeconds(1)),
          Duration.ofSeconds(6),
          () -> "no container running for a second; running now: " + running());
    } finally {
      // One whose create was still under way at the signal stays created (nothing runs in it): the
      // next server's sweep would take it, and the next test must not find it.
      for (String created :
          DockerCli.docker(
              "ps",
              "-a",
              "--filter",
              "label=dev.cinchmcp.owner",
              "--filter",
              "status=created",
              "-q")) {
        try {
          DockerCli.docker("rm", "-f", created);
        } catch (IOException e) {
          // its removal is under way already
        }
      }
    }
  }

  private static boolean noneRunningAfter(Duration pause) throws Exception {
    Await.timePasses(pause, "a container whose start was under way shows as running by then");
    return running().isEmpty();
  }

  private static List<String> running() throws Exception {
    return DockerCli.docker(
        "ps", "--filter", "label=dev.cinchmcp.owner", "--filter", "status=running", "-q");
  }

  @ParameterizedTest
  @ValueSource(strings = {"runc", "runsc"})
  void aCancelledCallsContainerIsRemoved(String runtime) throws Exception {
    try (JarProcess jar = server(runtime)) {
      jar.send(JarProcess.call(1, SPIN));
      awaitRunning(jar);
      jar.send(
          "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1}}");
      // Removed by the cancel, not by the clock: the container has just started, and its wall
      // clock (10 s + 1 s) is far from over when this wait ends.
      DockerCli.assertNoContainers(Duration.ofSeconds(5));
      assertEquals("42\n", stdoutOf(jar, 2, "print(6 * 7)"));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"runc"})
  void aDeadServersContainersAreRemovedAtStart(String runtime) throws Exception {
    DockerCli.assertNoContainers(Duration.ofSeconds(15));
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    String machine =
        Files.readString(Path.of("/etc/machine-id"), StandardCharsets.US_ASCII).strip();
    String leftover = "cinchmcp-" + gone.pid() + "-1";
    DockerCli.docker(
        "create",
        "--name",
        leftover,
        "--label",
        "dev.cinchmcp.owner=" + machine + "/" + gone.pid() + "/1",
        TestEngine.image(),
        "true");
    // One of a live server (this test's JVM) stays.
    String alive = "cinchmcp-live-" + ProcessHandle.current().pid();
    long start = ProcessHandle.current().info().startInstant().orElseThrow().toEpochMilli();
    DockerCli.docker(
        "create",
        "--name",
        alive,
        "--label",
        "dev.cinchmcp.owner=" + machine + "/" + ProcessHandle.current().pid() + "/" + start,
        TestEngine.image(),
        "true");
    try (JarProcess jar = JarProcess.start(DockerCli.jarEnvironment(runtime))) {
      jar.initialize();
      assertEquals("1\n", stdoutOf(jar, 1, "print(1)"), jar.stderr());
      Await.holdsWithin(() -> !DockerCli.containers().contains(leftover), Duration.ofSeconds(10));
      assertEquals(List.of(alive), DockerCli.containers(), jar.stderr());
      assertTrue(jar.stderr().contains("Removed 1 container(s) left by servers that are gone"));
    } finally {
      DockerCli.docker("rm", "-f", alive);
    }
  }

  /** Runs this code as call {@code id} and returns what it printed. */
  private static String stdoutOf(JarProcess jar, int id, String code) throws Exception {
    jar.send(JarProcess.call(id, code));
    return jar.awaitReply(id, Duration.ofSeconds(60))
        .path("result")
        .path("structuredContent")
        .path("stdout")
        .asText();
  }

  /** Four calls that spin; returns how many run at once (fewer on a small machine). */
  private static int sendFourSpins(JarProcess jar) throws Exception {
    int atOnce = DockerCli.atOnce(jar);
    for (int id = 1; id <= SandboxFacts.MAX_CONCURRENT; id++) {
      jar.send(JarProcess.call(id, SPIN));
    }
    return atOnce;
  }

  /** Waits until a container of this backend runs. */
  private static void awaitRunning(JarProcess jar) throws Exception {
    awaitRunning(jar, 1);
  }

  private static void awaitRunning(JarProcess jar, int containers) throws Exception {
    List<String> spinning =
        Await.untilPresent(
            () -> Optional.of(running()).filter(ids -> ids.size() >= containers),
            Duration.ofSeconds(30),
            () -> containers + " running container(s); stderr:\n" + jar.stderr());
    for (String container : spinning) {
      DockerCli.awaitPrinted(container, "spinning");
    }
  }
}
