package dev.cinchmcp.backend.local;

import static dev.cinchmcp.testkit.LocalRunners.await;
import static dev.cinchmcp.testkit.LocalRunners.describe;
import static dev.cinchmcp.testkit.Requires.Need.GVISOR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.testkit.ContainmentPrograms;
import dev.cinchmcp.testkit.HostListeners;
import dev.cinchmcp.testkit.LocalRunners;
import dev.cinchmcp.testkit.Requires;
import dev.cinchmcp.text.CappedText;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The walls of the local sandbox, each tested by a program that tries to get through: each test
 * would fail if its wall were missing. The slow ones (time-out, bombs, flood) are all started in
 * {@link #startSlowRuns()} so they run side by side, and each test only awaits its own.
 */
@Requires(GVISOR)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LocalSandboxContainmentTest {

  private static final String MARKER = "cinchmcp-secret-" + UUID.randomUUID();

  Path state;
  Path plantedDir;
  Path plantedInHome;
  LocalSandboxRunner runner;

  CompletableFuture<RunResult> infiniteLoop;
  CompletableFuture<RunResult> forkBomb;
  CompletableFuture<RunResult> forkCounter;
  CompletableFuture<RunResult> pythonMemoryBomb;
  CompletableFuture<RunResult> nodeBufferBomb;
  CompletableFuture<RunResult> nodeHeapBomb;
  CompletableFuture<RunResult> flood;
  CompletableFuture<RunResult> tmpFiller;

  /** The runner's settings: cold here (no pool); {@link LocalSandboxWarmContainmentTest} warm. */
  LocalSandboxSettings settings(LocalSandboxSettings base) {
    return base.withPoolSize(0);
  }

  /** Waits, if need be, until the runner is ready for the cases. */
  void ready(LocalSandboxRunner started) {
    assertTrue(started.usable(), started::unavailableReason);
  }

  CompletableFuture<RunResult> python(LocalSandboxRunner on, String code) {
    return LocalRunners.python(on, code);
  }

  CompletableFuture<RunResult> javascript(LocalSandboxRunner on, String code) {
    return LocalRunners.javascript(on, code);
  }

  @BeforeAll
  void startSlowRuns(@TempDir Path stateDir, @TempDir Path planted) throws IOException {
    state = stateDir;
    plantedDir = planted;
    // The environment runsc itself starts with holds a secret: it must not reach the program.
    runner =
        LocalSandboxRunner.start(
            settings(
                LocalSandboxSettings.defaults()
                    .withStateDir(state)
                    .withRunscEnvironment(
                        Map.of("PATH", System.getenv("PATH"), "CINCH_API_KEY", MARKER))));
    ready(runner);
    plantedInHome =
        Files.writeString(
            Path.of(System.getProperty("user.home"), ".cinchmcp-planted-" + UUID.randomUUID()),
            MARKER);
    Files.writeString(plantedDir.resolve("secret.txt"), MARKER);

    // Two rounds: first the runs that must finish in time (the counter must start 63 processes
    // within the 10 s limit, Node's memory watchdog must get to look), then those that spin for
    // seconds. Without host cgroups (an ordinary user on cgroup v1) nothing holds a run to half a
    // CPU, and side by side with the spinners the first ones once ran out of time.
    forkCounter = python(runner, ContainmentPrograms.FORK_COUNTER);
    pythonMemoryBomb = python(runner, ContainmentPrograms.PYTHON_MEMORY_BOMB);
    nodeBufferBomb = javascript(runner, ContainmentPrograms.NODE_BUFFER_BOMB);
    tmpFiller = python(runner, ContainmentPrograms.TMP_FILLER);
    await(forkCounter);
    await(nodeBufferBomb);
    infiniteLoop = python(runner, "print('started', flush=True)\nwhile True:\n    pass");
    forkBomb = python(runner, ContainmentPrograms.FORK_BOMB);
    nodeHeapBomb = javascript(runner, ContainmentPrograms.NODE_HEAP_BOMB);
    flood = python(runner, ContainmentPrograms.FLOOD);
  }

  @AfterAll
  void stop() throws Exception {
    Files.deleteIfExists(plantedInHome);
    if (runner.settings().poolSize() > 0) {
      runner.close(); // the sandboxes still waiting go with it
    }
    try {
      LocalRunners.assertNothingLeft(runner);
      assertEquals(List.of(), LocalRunners.ownCgroups(), "cgroups left behind");
    } finally {
      runner.close();
    }
  }

  @Test
  void hostFilesAreInvisible() {
    RunResult result =
        await(
            python(
                runner,
                ContainmentPrograms.readEach(
                    plantedInHome.toString(),
                    plantedDir.resolve("secret.txt").toString(),
                    "/etc/hostname",
                    "/etc/passwd",
                    "/root",
                    "/home",
                    state.toString())));
    String out = result.stdout().text();
    assertFalse(out.contains(MARKER), describe(result));
    assertFalse(out.contains("READ") || out.contains("LISTED"), describe(result));
    assertTrue(out.contains("/etc/hostname DENIED FileNotFoundError"), describe(result));
    assertFalse(
        out.contains("'home'") || out.contains("'root'") || out.contains("'work'"),
        describe(result));
  }

  @Test
  void etcHoldsOnlyWhatInstalledPackagesNeed() {
    RunResult result =
        await(
            python(
                runner,
                """
        import os
        print('ETC', sorted(os.listdir('/etc')))
        for path in ['/etc/shadow', '/etc/passwd', '/etc/group', '/etc/hostname', '/etc/hosts',
                     '/etc/machine-id', '/etc/ssh', '/etc/ssl/private', '/etc/sudoers',
                     '/usr/lib/ssl/private']:
            try:
                print(path, 'FOUND', os.listdir(path) if os.path.isdir(path) else open(path).read())
            except OSError as e:
                print(path, 'ABSENT', type(e).__name__)
        try:
            open('/etc/alternatives/x', 'w')
            print('alternatives WRITTEN')
        except OSError as e:
            print('alternatives REFUSED', e.strerror)
        """));
    String out = result.stdout().text();
    String listing = out.lines().findFirst().orElse("");
    for (String name : listing.replaceAll("[\\[\\]' ]|ETC", "").split(",")) {
      assertTrue(
          name.isEmpty()
              || OciSpec.ETC_PIECES.stream().anyMatch(piece -> piece.name().equals(name)),
          "unexpected in /etc: " + name + "\n" + describe(result));
    }
    assertFalse(out.contains("FOUND"), describe(result));
    // /usr/lib/ssl/private is Debian's link to /etc/ssl/private: it must dangle.
    assertEquals(10, out.split(" ABSENT ", -1).length - 1, describe(result));
    assertFalse(out.contains("WRITTEN"), describe(result));
  }

  /**
   * A planted /etc whose pieces hold links to the host's secrets: gVisor resolves them inside, so
   * they lead nowhere; a piece that is itself a link is not shown at all.
   */
  @Test
  void linksInEtcLeadNowhereOutside(@TempDir Path plantedEtc) throws Exception {
    Path alternatives = Files.createDirectory(plantedEtc.resolve("alternatives"));
    Files.createSymbolicLink(alternatives.resolve("home-secret"), plantedInHome);
    Files.createSymbolicLink(alternatives.resolve("shadow"), Path.of("/etc/shadow"));
    Files.createSymbolicLink(alternatives.resolve("state"), state);
    Files.createSymbolicLink(alternatives.resolve("relative"), Path.of("../../../" + state));
    Path visible = Path.of(SandboxRuntimes.find().interpreter(Language.PYTHON).orElseThrow());
    Files.createSymbolicLink(alternatives.resolve("python"), visible);
    Files.createSymbolicLink(plantedEtc.resolve("matplotlibrc"), plantedInHome);
    for (Path dir : List.of(plantedEtc, alternatives)) {
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    LocalSandboxRunner own =
        LocalRunners.usable(
            LocalSandboxRunner.start(
                LocalSandboxSettings.defaults()
                    .withStateDir(state.resolve("planted-etc"))
                    .withPoolSize(0)
                    .withHostEtc(plantedEtc)));
    try {
      RunResult result =
          await(
              python(
                  own,
                  """
          import os
          print('ETC', sorted(os.listdir('/etc')))
          for name in sorted(os.listdir('/etc/alternatives')):
              path = '/etc/alternatives/' + name
              try:
                  if os.path.isdir(path):
                      print(name, 'LISTED', os.listdir(path))
                  else:
                      with open(path, 'rb') as f:
                          print(name, 'READ', f.read(4))
              except OSError as e:
                  print(name, 'NOTHING', type(e).__name__)
          """));
      String out = result.stdout().text();
      assertTrue(out.startsWith("ETC ['alternatives']\n"), describe(result));
      assertFalse(out.contains(MARKER), describe(result));
      assertTrue(out.contains("python READ b'\\x7fELF'"), describe(result));
      for (String name : List.of("home-secret", "relative", "shadow", "state")) {
        assertTrue(out.contains(name + " NOTHING FileNotFoundError"), describe(result));
      }
    } finally {
      own.close();
      // Links out of a temporary directory make JUnit warn as it deletes them.
      try (var links = Files.list(alternatives)) {
        for (Path link : links.toList()) {
          Files.delete(link);
        }
      }
      Files.delete(plantedEtc.resolve("matplotlibrc"));
    }
  }

  @Test
  void noNetworkNotEvenToTheHost() throws Exception {
    try (HostListeners host = new HostListeners()) {
      // Its connections are made before it ends: one that got through says CONNECTED.
      RunResult result = await(python(runner, host.pythonProbe()));
      host.assertNothingReached(result.stdout().text(), describe(result), "sandbox");
    }
  }

  @Test
  void writesOutsideTmpFail() {
    RunResult result =
        await(
            python(
                runner,
                ContainmentPrograms.writeEach("/usr/x", "/x", "/code/main.py", "/bin/x", "/proc/x")
                    + "open('/tmp/x', 'w').write('x')\nprint('/tmp ok')\n"));
    String out = result.stdout().text();
    assertFalse(out.contains("WRITTEN"), describe(result));
    assertTrue(out.contains("/tmp ok"), describe(result));
  }

  @Test
  void theServersEnvironmentNeverArrives() {
    RunResult py =
        await(
            python(
                runner,
                """
        import os
        print(sorted(os.environ))
        print(open('/proc/self/environ').read())
        print(open('/proc/1/environ').read())
        """));
    assertFalse(py.stdout().text().contains(MARKER), describe(py));
    assertTrue(
        py.stdout()
            .text()
            .startsWith(
                "['HOME', 'LANG', 'LC_CTYPE', 'OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS', 'PATH']\n"),
        describe(py));
    RunResult js = await(javascript(runner, "console.log(JSON.stringify(process.env))"));
    assertFalse(js.stdout().text().contains(MARKER), describe(js));
    assertFalse(js.stdout().text().contains("CINCH_API_KEY"), describe(js));
  }

  @Test
  void infiniteLoopTimesOutWithItsOutput() {
    RunResult result = await(infiniteLoop);
    assertTrue(result.timedOut(), describe(result));
    assertNull(result.exitCode());
    assertEquals("started\n", result.stdout().text(), describe(result));
    assertTrue(
        result
            .stderr()
            .text()
            .contains("[sandbox] stopped: the program reached its 10 s time limit"),
        describe(result));
    assertTrue(
        result.durationMs() >= 9_900 && result.durationMs() < 14_000,
        "duration " + result.durationMs());
  }

  @Test
  void forkBombIsContained() {
    RunResult result = await(forkBomb);
    // Either the 10 s clock or a limit ends it; either way it ends, and the sandbox is gone.
    assertFalse(result.succeeded(), describe(result));
    assertTrue(result.durationMs() < 14_000, "duration " + result.durationMs());
  }

  @Test
  void processesAreCapped() {
    RunResult result = await(forkCounter);
    String out = result.stdout().text();
    assertTrue(out.startsWith("fork refused after "), describe(result));
    int forked = Integer.parseInt(out.split(" ")[3]);
    assertTrue(forked < 64, describe(result));
  }

  @Test
  void pythonMemoryBombIsStopped() {
    RunResult result = await(pythonMemoryBomb);
    assertEquals("150 MB ok\n", result.stdout().text(), describe(result));
    assertFalse(result.succeeded(), describe(result));
    assertTrue(
        result.stderr().text().contains("MemoryError") || result.stderr().text().contains("256 MB"),
        describe(result));
  }

  @Test
  void nodeMemoryBombIsStopped() {
    RunResult result = await(nodeBufferBomb);
    assertEquals("150 MB ok\n", result.stdout().text(), describe(result));
    assertEquals(137, result.exitCode(), describe(result));
    assertTrue(result.stderr().text().contains("more than its 256 MB of memory"), describe(result));
  }

  @Test
  void nodeHeapBombIsStopped() {
    RunResult result = await(nodeHeapBomb);
    assertFalse(result.succeeded(), describe(result));
    if (runner.limits().hostCgroupsHold()) {
      assertFalse(result.timedOut(), describe(result));
    } else if (result.timedOut()) {
      // Without host cgroups (no CPU share either) V8 can spend the 10 s collecting garbage at
      // its heap limit: stopped by the clock, never past its memory.
      return;
    }
    String err = result.stderr().text();
    assertTrue(err.contains("heap out of memory") || err.contains("256 MB"), describe(result));
  }

  @Test
  void outputFloodIsCutAndCounted() {
    RunResult result = await(flood);
    assertEquals(0, result.exitCode(), describe(result));
    CappedText out = result.stdout();
    // 'a' then 15,000 two-char emoji, then a flood: each end is cut at a whole code point, and the
    // emoji (four bytes as JSON each) fill the head's byte budget before its character budget.
    assertTrue(out.head().startsWith("a\uD83D\uDE00"), describe(result));
    assertFalse(Character.isHighSurrogate(out.head().charAt(out.head().length() - 1)));
    assertFalse(Character.isLowSurrogate(out.tail().charAt(0)));
    assertTrue(out.tail().endsWith("xend\n"), "the end of the flood is shown");
    assertEquals(1 + 30_000 + 50 * 100_000 + 4, out.originalLength());
    assertTrue(out.truncated());
  }

  @Test
  void tmpHoldsAtMost64Megabytes() {
    RunResult result = await(tmpFiller);
    String[] lines = result.stdout().text().strip().split("\n");
    assertTrue(lines[0].startsWith("refused"), describe(result));
    long written = Long.parseLong(lines[lines.length - 1]);
    assertTrue(written >= 32L << 20 && written <= 64L << 20, "wrote " + written);
  }

  @Test
  void eachRunLeavesNothingBehind() throws Exception {
    LocalSandboxRunner own = LocalRunners.runner(state.resolve("own"));
    try {
      await(python(own, "print(1)"));
      await(javascript(own, "throw new Error('x')"));
      LocalRunners.assertNothingLeft(own);
    } finally {
      own.close();
    }
  }
}
