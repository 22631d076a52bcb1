package dev.cinchmcp.e2e;

import static dev.cinchmcp.testkit.Requires.Need.ENGINE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cinchmcp.testkit.ContainmentPrograms;
import dev.cinchmcp.testkit.DockerCli;
import dev.cinchmcp.testkit.HostListeners;
import dev.cinchmcp.testkit.JarProcess;
import dev.cinchmcp.testkit.Requires;
import dev.cinchmcp.testkit.TestEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The walls of the docker backend, through the built jar on a real engine, each tested by a program
 * that tries to get through: the cases the local backend passes (network, files, memory, processes,
 * time, environment, hostile output), and the inputs. One subclass per runtime (runc, runsc). Every
 * call is sent at the start, so the slow ones run side by side; each test awaits its own answer.
 */
@Requires(ENGINE)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class DockerContainment {

  private static final String MARKER = "cinchmcp-secret-" + UUID.randomUUID();
  private static final Duration ANSWER = Duration.ofSeconds(120);

  private final String runtime;
  private JarProcess jar;
  private Path planted;
  private HostListeners host;

  DockerContainment(String runtime) {
    this.runtime = runtime;
  }

  @BeforeAll
  void startEveryRun() throws Exception {
    planted = Files.createTempDirectory("cinchmcp-planted-");
    Files.writeString(planted.resolve("secret.txt"), MARKER);
    host = new HostListeners();
    Map<String, String> env = new HashMap<>(DockerCli.jarEnvironment(runtime));
    env.put("CINCH_API_KEY", "cinch_live_" + MARKER); // the server's secrets must not arrive
    env.put("CINCH_SECRET_PROBE", MARKER);
    jar = JarProcess.start(env);
    jar.initialize();
    send("loop", "python", "print('started', flush=True)\nwhile True:\n    pass", null);
    send("forkBomb", "python", ContainmentPrograms.FORK_BOMB, null);
    send("forkCounter", "python", ContainmentPrograms.FORK_COUNTER, null);
    send("pythonMemory", "python", ContainmentPrograms.PYTHON_MEMORY_BOMB, null);
    send("nodeMemory", "javascript", ContainmentPrograms.NODE_BUFFER_BOMB, null);
    send("nodeHeap", "javascript", ContainmentPrograms.NODE_HEAP_BOMB, null);
    send("flood", "python", ContainmentPrograms.FLOOD, null);
    send("tmp", "python", ContainmentPrograms.TMP_FILLER, null);
    send(
        "files",
        "python",
        ContainmentPrograms.readEach(
            planted.resolve("secret.txt").toString(),
            planted.toString(),
            "/etc/passwd",
            "/root",
            "/home",
            "/var/run/docker.sock",
            TestEngine.host().replace("unix://", "")),
        null);
    send("network", "python", host.pythonProbe(), null);
    send(
        "writes",
        "python",
        ContainmentPrograms.writeEach(
            "/usr/x", "/x", "/bin/x", "/proc/x", "/etc/hosts", "/tmp/code/main.py.x"),
        null);
    send(
        "environment",
        "python",
        """
        import os
        print(sorted(os.environ.items()))
        print(open('/proc/self/environ').read())
        print(open('/proc/1/environ').read())
        """,
        null);
    send("nodeEnvironment", "javascript", "console.log(JSON.stringify(process.env))", null);
    send(
        "privileges",
        "python",
        """
        import os
        print('uid', os.getuid(), os.getgid())
        for line in open('/proc/self/status'):
            if line.startswith(('CapEff', 'CapBnd', 'NoNewPrivs')):
                print(line.strip())
        """,
        null);
    ObjectNode input = JarProcess.JSON.createObjectNode();
    input.put("stdin", "line one\nline two\n");
    input.putObject("files").put("data/in.txt", "from a file");
    input.putArray("args").add("--flag").add("two words");
    send(
        "input",
        "python",
        "import sys\nprint(sys.argv[1:], open('data/in.txt').read(), sys.stdin.read().split())",
        input);
    send(
        "nodeInput",
        "javascript",
        "const fs = require('fs'); console.log(process.argv.slice(2).join('|'),"
            + " fs.readFileSync('data/in.txt', 'utf8'), fs.readFileSync(0, 'utf8').length)",
        input);
    send("noStdin", "python", "import sys\nprint(repr(sys.stdin.read()))", null);
    // Near the input limit (4 MB): the launcher is ~5.3 MB of code on the container's stdin.
    ObjectNode big = JarProcess.JSON.createObjectNode();
    big.putObject("files").put("big.txt", "y".repeat(3_900_000));
    big.put("stdin", "abc");
    send(
        "bigInput",
        "python",
        "import sys\nd = open('big.txt').read()\nprint(len(d), d[:3], sys.stdin.read())",
        big);
    send("nodeThrows", "javascript", "throw new Error('boom')", null);
    send("exitCode", "python", "import sys\nprint('bye')\nsys.exit(3)", null);
  }

  @AfterAll
  void stop() throws Exception {
    try {
      if (jar != null) {
        jar.closeStdin();
        assertEquals(0, jar.waitForExit(Duration.ofSeconds(30)));
        jar.assertProtocolClean();
        assertFalse(jar.stderr().contains(MARKER), "the marker reached the log");
      }
      DockerCli.assertNoContainers(Duration.ofSeconds(5));
    } finally {
      if (jar != null) {
        jar.close();
      }
      if (host != null) {
        host.close();
      }
      Files.deleteIfExists(planted.resolve("secret.txt"));
      Files.deleteIfExists(planted);
    }
  }

  private void send(String id, String language, String code, ObjectNode extra) throws IOException {
    ObjectNode call = JarProcess.JSON.createObjectNode();
    call.put("jsonrpc", "2.0").put("id", id).put("method", "tools/call");
    ObjectNode params = call.putObject("params");
    params.put("name", "execute_code");
    ObjectNode arguments = params.putObject("arguments");
    arguments.put("code", code).put("language", language);
    if (extra != null) {
      arguments.setAll(extra);
    }
    jar.send(JarProcess.JSON.writeValueAsString(call));
  }

  /** The structured result of a call. */
  private JsonNode result(String id) throws InterruptedException {
    JsonNode reply = jar.awaitReply(id, ANSWER);
    JsonNode structured = reply.path("result").path("structuredContent");
    assertTrue(structured.has("stdout"), () -> "no result for " + id + ": " + reply);
    return structured;
  }

  private static String describe(JsonNode result) {
    return result.toString().length() > 3000
        ? result.toString().substring(0, 3000) + "..."
        : result.toString();
  }

  @Test
  void theReadyLineNamesEngineRuntimeAndLimits() {
    String stderr = jar.stderr();
    assertTrue(stderr.contains("ready on stdio: backend docker: Docker Engine"), stderr);
    assertTrue(stderr.contains("limits held: 10 seconds, 256 MB of memory"), stderr);
    // The engine shares this kernel: on two cores, four half CPUs would fill the machine.
    int cores = Runtime.getRuntime().availableProcessors();
    assertEquals(
        cores == 2,
        stderr.contains("3 containers at once (not 4), to leave part of 2 cores free"),
        stderr);
    assertTrue(
        runtime.equals("runsc")
            ? stderr.contains("isolation: gVisor (runsc)")
            : stderr.contains("shares this machine's kernel, as CINCH_DOCKER_RUNTIME asks"),
        stderr);
  }

  @Test
  void hostFilesAreInvisible() throws Exception {
    JsonNode result = result("files");
    String out = result.path("stdout").asText();
    assertFalse(out.contains(MARKER), describe(result));
    assertFalse(out.contains("READ") || out.contains("LISTED"), describe(result));
    assertTrue(out.contains("/var/run/docker.sock DENIED FileNotFoundError"), describe(result));
    assertFalse(out.contains("'home'") || out.contains("'root'"), describe(result));
  }

  @Test
  void noNetworkNotEvenToTheHost() throws Exception {
    JsonNode result = result("network");
    String out = result.path("stdout").asText();
    host.assertNothingReached(out, describe(result), "container");
  }

  @Test
  void writesOutsideTmpFail() throws Exception {
    JsonNode result = result("writes");
    String out = result.path("stdout").asText();
    assertFalse(
        out.replace("/tmp/code/main.py.x WRITTEN", "").contains("WRITTEN"), describe(result));
    assertTrue(out.contains("/tmp/code/main.py.x WRITTEN"), describe(result));
  }

  @Test
  void theServersEnvironmentNeverArrives() throws Exception {
    JsonNode py = result("environment");
    assertFalse(py.path("stdout").asText().contains(MARKER), describe(py));
    assertFalse(py.path("stdout").asText().contains("CINCH_"), describe(py));
    JsonNode js = result("nodeEnvironment");
    assertFalse(js.path("stdout").asText().contains(MARKER), describe(js));
    assertFalse(js.path("stdout").asText().contains("CINCH_API_KEY"), describe(js));
  }

  @Test
  void noPrivileges() throws Exception {
    JsonNode result = result("privileges");
    String out = result.path("stdout").asText();
    assertTrue(out.startsWith("uid 65534 65534\n"), describe(result));
    assertTrue(out.contains("CapEff:\t0000000000000000"), describe(result));
    if (runtime.equals("runc")) {
      // gVisor's /proc/self/status has no NoNewPrivs line.
      assertTrue(out.contains("NoNewPrivs:\t1"), describe(result));
    }
  }

  @Test
  void infiniteLoopTimesOutWithItsOutput() throws Exception {
    JsonNode result = result("loop");
    assertTrue(result.path("timedOut").asBoolean(), describe(result));
    assertTrue(result.path("exitCode").isNull(), describe(result));
    assertEquals("started\n", result.path("stdout").asText(), describe(result));
    assertTrue(
        result
            .path("stderr")
            .asText()
            .contains("[sandbox] stopped: the program reached its 10 s time limit"),
        describe(result));
    long ms = result.path("durationMs").asLong();
    assertTrue(ms >= 9_900 && ms < 14_000, "duration " + ms);
  }

  @Test
  void forkBombIsContained() throws Exception {
    JsonNode result = result("forkBomb");
    assertFalse(result.path("exitCode").asInt(-1) == 0, describe(result));
    assertTrue(result.path("durationMs").asLong() < 14_000, describe(result));
  }

  @Test
  void processesAreCapped() throws Exception {
    JsonNode result = result("forkCounter");
    String out = result.path("stdout").asText();
    assertTrue(out.startsWith("fork refused after "), describe(result));
    assertTrue(Integer.parseInt(out.split(" ")[3]) < 64, describe(result));
  }

  @Test
  void pythonMemoryBombIsStopped() throws Exception {
    JsonNode result = result("pythonMemory");
    assertEquals("150 MB ok\n", result.path("stdout").asText(), describe(result));
    assertFalse(result.path("exitCode").asInt(-1) == 0, describe(result));
    String err = result.path("stderr").asText();
    assertTrue(err.contains("MemoryError") || err.contains("256 MB"), describe(result));
  }

  @Test
  void nodeMemoryBombIsStopped() throws Exception {
    JsonNode result = result("nodeMemory");
    assertEquals("150 MB ok\n", result.path("stdout").asText(), describe(result));
    assertFalse(result.path("exitCode").asInt(-1) == 0, describe(result));
    assertFalse(result.path("timedOut").asBoolean(), describe(result));
  }

  @Test
  void nodeHeapBombIsStopped() throws Exception {
    JsonNode result = result("nodeHeap");
    assertFalse(result.path("exitCode").asInt(-1) == 0, describe(result));
    assertFalse(result.path("timedOut").asBoolean(), describe(result));
    String err = result.path("stderr").asText();
    assertTrue(err.contains("heap out of memory") || err.contains("256 MB"), describe(result));
  }

  @Test
  void outputFloodIsCutAndCounted() throws Exception {
    JsonNode result = result("flood");
    assertEquals(0, result.path("exitCode").asInt(), describe(result));
    assertTrue(result.path("stdoutTruncated").asBoolean(), describe(result));
    assertEquals(1 + 30_000 + 50 * 100_000 + 4, result.path("stdoutLength").asLong());
    String out = result.path("stdout").asText();
    assertTrue(out.startsWith("a\uD83D\uDE00"), out.substring(0, 20));
    assertTrue(out.endsWith("xend\n"), "the end of the flood is shown");
  }

  @Test
  void tmpHoldsAtMost64Megabytes() throws Exception {
    JsonNode result = result("tmp");
    String[] lines = result.path("stdout").asText().strip().split("\n");
    assertTrue(lines[0].startsWith("refused"), describe(result));
    long written = Long.parseLong(lines[lines.length - 1]);
    assertTrue(written >= 32L << 20 && written <= 64L << 20, "wrote " + written);
  }

  @Test
  void inputsArriveAsOnTheOtherBackends() throws Exception {
    JsonNode py = result("input");
    assertEquals(
        "['--flag', 'two words'] from a file ['line', 'one', 'line', 'two']\n",
        py.path("stdout").asText(),
        describe(py));
    JsonNode js = result("nodeInput");
    assertEquals("--flag|two words from a file 18\n", js.path("stdout").asText(), describe(js));
    JsonNode none = result("noStdin");
    assertEquals("''\n", none.path("stdout").asText(), describe(none));
    JsonNode big = result("bigInput");
    assertEquals("3900000 yyy abc\n", big.path("stdout").asText(), describe(big));
  }

  @Test
  void exitCodesAndErrorsAreThePrograms() throws Exception {
    JsonNode exit = result("exitCode");
    assertEquals(3, exit.path("exitCode").asInt(), describe(exit));
    assertEquals("bye\n", exit.path("stdout").asText(), describe(exit));
    JsonNode thrown = result("nodeThrows");
    assertEquals(1, thrown.path("exitCode").asInt(), describe(thrown));
    assertTrue(thrown.path("stderr").asText().contains("Error: boom"), describe(thrown));
    assertEquals("docker", thrown.path("backend").asText());
  }
}
