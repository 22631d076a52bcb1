package dev.cinchmcp.e2e;

import static dev.cinchmcp.testkit.Requires.Need.ENGINE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cinchmcp.testkit.Await;
import dev.cinchmcp.testkit.ContainmentPrograms;
import dev.cinchmcp.testkit.DockerCli;
import dev.cinchmcp.testkit.HostListeners;
import dev.cinchmcp.testkit.JarProcess;
import dev.cinchmcp.testkit.Requires;
import dev.cinchmcp.testkit.TestEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The containers the docker backend starts ahead of time (CINCH_DOCKER_POOL), through the built jar
 * on a real engine: a waiting container takes the next call and a new one is made after it; it is
 * single-use; every wall holds in it; its time limit counts from the hand-over; a server killed
 * outright leaves none running 10 s later and none after the next start; an engine restarted while
 * one waits still answers the next call. One subclass per runtime (runc, runsc).
 */
@Requires(ENGINE)
abstract class DockerPool {

  /** Prints how long PID 1 of the container has run, in seconds: the container's age. */
  private static final String CONTAINER_AGE =
      String.join(
          "\n",
          "import os",
          "start = int(open('/proc/1/stat').read().rsplit(')', 1)[1].split()[19])",
          "up = float(open('/proc/uptime').read().split()[0])",
          "print(round(up - start / os.sysconf('SC_CLK_TCK'), 1))");

  private static final String SPIN = "print('spinning', flush=True)\nwhile True:\n    pass";

  private final String runtime;
  private final List<JarProcess> servers = new ArrayList<>();
  private int nextId;

  DockerPool(String runtime) {
    this.runtime = runtime;
  }

  @AfterEach
  void stopServers() throws Exception {
    for (JarProcess jar : servers) {
      if (jar.process().isAlive()) {
        // As a client ends a session: a container being started ahead then is removed too (a
        // SIGKILL at that moment leaves it created, for the next start's sweep).
        jar.closeStdin();
        assertEquals(0, jar.waitForExit(Duration.ofSeconds(30)), jar.stderr());
      }
      jar.close();
    }
    DockerCli.assertNoContainers(Duration.ofSeconds(15));
  }

  /** A server with the default pool (one per language), once no container of an earlier test is. */
  private JarProcess server() throws Exception {
    DockerCli.assertNoContainers(Duration.ofSeconds(15));
    Map<String, String> env = DockerCli.jarEnvironment(runtime, 1);
    JarProcess jar = JarProcess.start(env);
    servers.add(jar);
    jar.initialize();
    return jar;
  }

  @Test
  void theReadyLineSaysHowManyContainersWait() throws Exception {
    JarProcess jar = server();
    awaitWaiting(jar, List.of());
    assertTrue(
        jar.stderr().contains("1 container per language started ahead of time"), jar.stderr());
    assertTrue(jar.stderr().contains("CINCH_DOCKER_POOL=0 turns this off"), jar.stderr());
  }

  @Test
  void aContainerStartedAheadTakesTheNextCallAndANewOneIsMadeAfterIt() throws Exception {
    JarProcess jar = server();
    List<String> before = awaitWaiting(jar, List.of());
    for (String waiting : before) { // both wait a while before their calls
      DockerCli.awaitAge(waiting.split(" ")[0], Duration.ofSeconds(2));
    }
    double age = Double.parseDouble(stdout(jar, "python", CONTAINER_AGE).strip());
    assertTrue(age >= 2, "the call ran in a container " + age + " s old: a fresh one");
    List<String> after = awaitWaiting(jar, before);
    String python = only(before, "python3");
    assertFalse(after.contains(python), "the used container is gone: " + after);
    assertTrue(after.contains(only(before, "node")), "the node container still waits: " + after);

    String js =
        stdout(
            jar,
            "javascript",
            "const fs = require('fs');"
                + "const start = Number(fs.readFileSync('/proc/1/stat', 'utf8')"
                + ".split(')').pop().trim().split(' ')[19]);"
                + "const up = Number(fs.readFileSync('/proc/uptime', 'utf8').split(' ')[0]);"
                + "console.log(up - start / 100, process.uptime() < 2, typeof fs, typeof n)");
    String[] said = js.strip().split(" ");
    assertTrue(Double.parseDouble(said[0]) >= 2, "a fresh container: " + js);
    assertEquals("true", said[1], "process.uptime() leaves out the wait: " + js);
    assertEquals("object number", said[2] + " " + said[3], "what the cold reader leaves: " + js);
  }

  @Test
  void aFileOrProcessOfOneProgramIsNotSeenByTheNext() throws Exception {
    JarProcess jar = server();
    List<String> before = awaitWaiting(jar, List.of());
    String left =
        stdout(
            jar,
            "python",
            String.join(
                "\n",
                "import os, subprocess",
                "open('/tmp/left-behind.txt', 'w').write('x')",
                "subprocess.Popen(['sleep', '300'], start_new_session=True)",
                "print('left')"));
    assertEquals("left\n", left);
    DockerCli.awaitAge(name(awaitWaiting(jar, before), "python3"), Duration.ofSeconds(1));
    String seen =
        stdout(
            jar,
            "python",
            String.join(
                "\n",
                "import os",
                "names = []",
                "for p in os.listdir('/proc'):",
                "    if p.isdigit():",
                "        try:",
                "            names.append(open('/proc/' + p + '/cmdline').read().split('\\0')[0])",
                "        except OSError:",
                "            pass",
                "print(sorted(os.listdir('/tmp')), sorted(names))",
                CONTAINER_AGE.replace("import os\n", "")));
    assertTrue(seen.startsWith("['code'] ['python3', 'python3', 'timeout']\n"), seen);
    assertTrue(Double.parseDouble(seen.split("\n")[1]) >= 1, "a fresh container: " + seen);
  }

  @Test
  void theWallsHoldInAHandedOverContainer() throws Exception {
    JarProcess jar = server();
    try (HostListeners host = new HostListeners()) {
      List<String> waiting = awaitWaiting(jar, List.of());
      JsonNode memory = call(jar, "python", ContainmentPrograms.PYTHON_MEMORY_BOMB);
      assertEquals("150 MB ok\n", memory.path("stdout").asText(), memory.toString());
      assertFalse(memory.path("exitCode").asInt(-1) == 0, memory.toString());

      waiting = awaitWaiting(jar, waiting);
      JsonNode nodeMemory = call(jar, "javascript", ContainmentPrograms.NODE_BUFFER_BOMB);
      assertEquals("150 MB ok\n", nodeMemory.path("stdout").asText(), nodeMemory.toString());
      assertFalse(nodeMemory.path("exitCode").asInt(-1) == 0, nodeMemory.toString());

      waiting = awaitWaiting(jar, waiting);
      JsonNode network = call(jar, "python", host.pythonProbe());
      host.assertNothingReached(
          network.path("stdout").asText(), network.toString(), "handed-over container");

      waiting = awaitWaiting(jar, waiting);
      JsonNode writes =
          call(
              jar,
              "python",
              ContainmentPrograms.writeEach("/usr/x", "/x", "/etc/hosts", "/tmp/code/main.py.x"));
      String out = writes.path("stdout").asText();
      assertFalse(out.replace("/tmp/code/main.py.x WRITTEN", "").contains("WRITTEN"), out);
      assertTrue(out.contains("/tmp/code/main.py.x WRITTEN"), out);

      waiting = awaitWaiting(jar, waiting);
      String who =
          stdout(
              jar,
              "python",
              "import os\nprint(os.getuid(), os.getgid(),"
                  + " [l.split()[1] for l in open('/proc/self/status') if l.startswith('CapEff')])");
      assertEquals("65534 65534 ['0000000000000000']\n", who);
    }
  }

  @Test
  void aProgramGetsItsWholeTimeLimitAfterItsContainerWaited() throws Exception {
    JarProcess jar = server();
    // It waits longer than the time limit.
    DockerCli.awaitAge(name(awaitWaiting(jar, List.of()), "python3"), Duration.ofSeconds(15));
    JsonNode result =
        call(jar, "python", "import time\ntime.sleep(9)\nprint('done after 9 s', flush=True)");
    assertEquals("done after 9 s\n", result.path("stdout").asText(), result.toString());
    assertFalse(result.path("timedOut").asBoolean(), result.toString());
    assertEquals(0, result.path("exitCode").asInt(), result.toString());
  }

  @Test
  void aSigkilledServersWaitingContainersEndWithin10SecondsAndNoneIsLeftAfterTheNextStart()
      throws Exception {
    JarProcess jar = server();
    List<String> waiting = awaitWaiting(jar, List.of());
    jar.process().destroyForcibly(); // SIGKILL: no shutdown hook, no clean-up of the JVM's own
    jar.process().waitFor();
    long killed = System.nanoTime();
    Await.until(
        () -> DockerCli.runningWithInterpreter().isEmpty(),
        Duration.ofSeconds(10),
        () -> "no running container 10 s after the SIGKILL: " + waiting);
    long ms = (System.nanoTime() - killed) / 1_000_000;
    assertTrue(ms < 10_000, "took " + ms + " ms");

    JarProcess next = server();
    awaitWaiting(next, List.of());
    List<String> all = DockerCli.containers();
    for (String container : waiting) {
      assertFalse(all.contains(container.split(" ")[0]), container + " left: " + all);
    }
  }

  @Test
  void aSigkilledServersHandedOverProgramStopsAtItsTimeLimitFromTheHandOver() throws Exception {
    JarProcess jar = server();
    List<String> waiting = awaitWaiting(jar, List.of());
    String python = name(waiting, "python3");
    DockerCli.awaitAge(python, Duration.ofSeconds(3));
    jar.send(JarProcess.call(++nextId, SPIN, "p1"));
    long sent = System.nanoTime();
    DockerCli.awaitPrinted(python, "spinning");
    jar.process().destroyForcibly();
    jar.process().waitFor();
    assertTrue(
        DockerCli.runningWithInterpreter().stream().anyMatch(c -> c.startsWith(python)),
        "the program runs in the container that waited: " + DockerCli.runningWithInterpreter());
    // 10 s from the hand-over + the 1 s backstop grace + 3 s for the engine and a busy machine:
    // not the 3 s it waited before, nor its waiting budget.
    Await.until(
        () -> DockerCli.runningWithInterpreter().stream().noneMatch(c -> c.startsWith(python)),
        Duration.ofSeconds(14).minusNanos(System.nanoTime() - sent),
        "the handed-over container to end 14 s after the call");
    long ms = (System.nanoTime() - sent) / 1_000_000;
    assertTrue(ms >= 10_000, "stopped before its 10 s: " + ms + " ms");
  }

  @Test
  void anEngineRestartedWhileAContainerWaitsStillAnswersTheNextCall() throws Exception {
    Path dir = engineDir();
    assumeTrue(dir != null, "the engine is not one of .ci/engine.sh: it cannot be restarted here");
    JarProcess jar = server();
    awaitWaiting(jar, List.of());
    Process restart =
        new ProcessBuilder("bash", ".ci/engine.sh", "restart", dir.toString())
            .redirectErrorStream(true)
            .start();
    String said = new String(restart.getInputStream().readAllBytes());
    assertTrue(restart.waitFor(60, TimeUnit.SECONDS), said);
    assertEquals(0, restart.exitValue(), said);
    assertEquals("4\n", stdout(jar, "python", "print(2 + 2)"), jar.stderr());
    assertEquals("4\n", stdout(jar, "javascript", "console.log(2 + 2)"), jar.stderr());
  }

  /** The directory of a .ci/engine.sh engine (its daemon.json beside the socket), or null. */
  private static Path engineDir() {
    String host = TestEngine.host();
    if (!host.startsWith("unix://")) {
      return null;
    }
    Path dir = Path.of(host.substring("unix://".length())).getParent();
    return Files.exists(dir.resolve("daemon.json")) && Files.exists(dir.resolve("docker.pid"))
        ? dir
        : null;
  }

  /**
   * Waits until one container per language waits, none of them in {@code before} but those still
   * waiting from then, and no call's container is left; returns them as "name interpreter".
   */
  private static List<String> awaitWaiting(JarProcess jar, List<String> before) throws Exception {
    return Await.untilPresent(
        () -> {
          List<String> now = DockerCli.runningWithInterpreter();
          boolean both =
              now.size() == 2
                  && now.stream().anyMatch(c -> c.endsWith(" python3"))
                  && now.stream().anyMatch(c -> c.endsWith(" node"));
          boolean changed = before.isEmpty() || !now.containsAll(before);
          return both && changed ? java.util.Optional.of(now) : java.util.Optional.empty();
        },
        Duration.ofSeconds(60),
        () ->
            "a container per language waiting (before: "
                + before
                + "); running: "
                + DockerCli.runningWithInterpreter()
                + "; stderr:\n"
                + jar.stderr());
  }

  private static String only(List<String> containers, String interpreter) {
    return containers.stream().filter(c -> c.endsWith(" " + interpreter)).findFirst().orElseThrow();
  }

  private static String name(List<String> containers, String interpreter) {
    return only(containers, interpreter).split(" ")[0];
  }

  private JsonNode call(JarProcess jar, String language, String code) throws Exception {
    int id = ++nextId;
    jar.send(JarProcess.call(id, Map.of("code", code, "language", language)));
    JsonNode reply = jar.awaitReply(id, Duration.ofSeconds(90));
    JsonNode result = reply.path("result").path("structuredContent");
    assertTrue(result.has("stdout"), () -> "no result: " + reply + "\n" + jar.stderr());
    return result;
  }

  private String stdout(JarProcess jar, String language, String code) throws Exception {
    JsonNode result = call(jar, language, code);
    assertEquals(0, result.path("exitCode").asInt(-1), result.toString());
    return result.path("stdout").asText();
  }
}
