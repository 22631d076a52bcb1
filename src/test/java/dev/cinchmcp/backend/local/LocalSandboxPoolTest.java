package dev.cinchmcp.backend.local;

import static dev.cinchmcp.testkit.LocalRunners.await;
import static dev.cinchmcp.testkit.LocalRunners.describe;
import static dev.cinchmcp.testkit.Requires.Need.GVISOR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunListener;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.testkit.LocalRunners;
import dev.cinchmcp.testkit.Requires;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The life of the sandboxes started ahead of time, with real gVisor: one use each, refilled after
 * calls, emptied after an idle spell, a dead one replaced by a cold start, a burst served warm as
 * far as the pool goes and cold beyond it, and nothing left once the runner is closed.
 */
@Requires(GVISOR)
class LocalSandboxPoolTest {

  @TempDir Path state;

  private static final Program PY = new Program("print(2 + 2)", Language.PYTHON);
  private static final Program JS = new Program("console.log(2 + 2)", Language.JAVASCRIPT);

  /** Runs {@code program}; true when it ran in a sandbox started ahead of time. */
  private static boolean ranWarm(LocalSandboxRunner runner, Program program) {
    return ranWarm(startNoting(runner, program));
  }

  private static Noted startNoting(LocalSandboxRunner runner, Program program) {
    List<String> lines = new CopyOnWriteArrayList<>();
    CompletableFuture<RunResult> future =
        runner.run(
            program,
            new RunListener() {
              @Override
              public void log(Level level, String message) {
                lines.add(message);
              }
            });
    return new Noted(future, lines);
  }

  private record Noted(CompletableFuture<RunResult> future, List<String> lines) {}

  private static boolean ranWarm(Noted noted) {
    RunResult result = await(noted.future());
    assertEquals("4\n", result.stdout().text(), describe(result));
    return LocalRunners.lastStartWasWarm(noted.lines());
  }

  /** The use of a runner whose pool is full. */
  private interface WithRunner {
    void use(LocalSandboxRunner runner) throws Exception;
  }

  /**
   * Starts a runner with {@code size} sandboxes waiting per language, lets {@code use} have it,
   * closes it, and asserts that it left nothing behind.
   */
  private void withWarmRunner(int size, WithRunner use) throws Exception {
    LocalSandboxRunner runner = LocalRunners.warmRunner(state, size);
    try {
      use.use(runner);
    } finally {
      runner.close();
    }
    LocalRunners.assertNothingLeft(runner);
  }

  @Test
  void eachSandboxIsUsedOnceAndThePoolRefillsAfterTheCall() throws Exception {
    withWarmRunner(
        1,
        runner -> {
          assertEquals(1, runner.waiting(Language.PYTHON));
          assertEquals(1, runner.waiting(Language.JAVASCRIPT));
          assertTrue(ranWarm(runner, PY));
          LocalRunners.awaitPoolFull(runner);
          assertTrue(ranWarm(runner, PY));
          assertTrue(ranWarm(runner, JS));
          LocalRunners.awaitPoolFull(runner);
          assertTrue(ranWarm(runner, JS));
        });
    assertEquals(List.of(), LocalRunners.ownCgroups(), "cgroups left behind");
  }

  @Test
  void aPoolOfZeroStartsNothingAhead() throws Exception {
    LocalSandboxRunner runner = LocalRunners.runner(state);
    try {
      assertFalse(ranWarm(runner, PY));
      assertEquals(0, runner.waiting(Language.PYTHON));
      assertFalse(runner.poolFull());
      LocalRunners.assertNothingLeft(runner);
    } finally {
      runner.close();
    }
  }

  @Test
  void anIdleSpellEmptiesThePoolAndTheNextCallRefillsIt() throws Exception {
    LocalSandboxRunner runner =
        LocalRunners.warmRunner(
            LocalSandboxSettings.defaults()
                .withStateDir(state)
                .withPoolSize(1)
                .withPoolIdleLimit(Duration.ofSeconds(3)));
    try {
      assertTrue(ranWarm(runner, PY));
      LocalRunners.awaitCondition(
          () -> runner.waiting(Language.PYTHON) == 0 && runner.waiting(Language.JAVASCRIPT) == 0,
          "the idle pool to be emptied");
      // An empty pool holds nothing at all once its entries' clean-up is over.
      LocalRunners.awaitCondition(() -> nothingLeft(runner), "the emptied ones to be removed");
      assertFalse(ranWarm(runner, PY), "after the idle spell the call runs cold");
      // ...and its end refills the pool (Python first), until the next idle spell empties it.
      LocalRunners.awaitCondition(() -> runner.waiting(Language.PYTHON) == 1, "a refill");
    } finally {
      runner.close();
    }
  }

  @Test
  void aWaitingSandboxThatDiedMeansAColdStart() throws Exception {
    withWarmRunner(
        1,
        runner -> {
          // Kill the waiting sandboxes from outside, as the OOM killer might.
          killRunProcesses();
          assertFalse(ranWarm(runner, PY), "a dead sandbox is not handed out");
          assertFalse(ranWarm(runner, JS), "a dead sandbox is not handed out");
          LocalRunners.awaitPoolFull(runner);
          assertTrue(ranWarm(runner, PY), "the pool is refilled after the cold runs");
        });
  }

  @Test
  void aBurstTakesWhatWaitsAndRunsTheRestCold() throws Exception {
    withWarmRunner(
        2,
        runner -> {
          List<Noted> burst = new ArrayList<>();
          for (int i = 0; i < 6; i++) {
            burst.add(startNoting(runner, PY));
          }
          long warm = burst.stream().filter(LocalSandboxPoolTest::ranWarm).count();
          assertEquals(
              2, warm, "the two waiting sandboxes, and no more: no refill during the burst");
          LocalRunners.awaitPoolFull(runner);
        });
  }

  @Test
  void cancellingAWarmRunKillsItsSandbox() throws Exception {
    LocalSandboxRunner runner = LocalRunners.warmRunner(state, 1);
    try {
      Noted spinning = startNoting(runner, new Program("while True:\n    pass", Language.PYTHON));
      LocalRunners.awaitCondition(
          () -> LocalRunners.lastStartWasWarm(spinning.lines()), "the warm run to start");
      List<ProcessHandle> before = runProcesses();
      assertTrue(spinning.future().cancel(true));
      // Its sandbox goes; the waiting Node one stays for the next call.
      LocalRunners.awaitCondition(
          () -> before.stream().filter(ProcessHandle::isAlive).count() < before.size(),
          "the cancelled sandbox's processes to end");
      assertTrue(ranWarm(runner, JS), "the pool is still usable");
    } finally {
      runner.close();
    }
    LocalRunners.awaitCondition(() -> nothingLeft(runner), "nothing left");
  }

  @Test
  void closingKillsTheWaitingSandboxesAtOnce() throws Exception {
    LocalSandboxRunner runner = LocalRunners.warmRunner(state, 2);
    List<ProcessHandle> sandboxes = runProcesses();
    assertFalse(sandboxes.isEmpty(), "the test proves nothing");
    runner.close(); // SIGKILL to each, then the clean-up
    LocalRunners.awaitCondition(
        () -> sandboxes.stream().noneMatch(ProcessHandle::isAlive), "the killed ones to be reaped");
    LocalRunners.assertNothingLeft(runner);
    assertEquals(List.of(), LocalRunners.ownCgroups(), "cgroups left behind");
  }

  private static boolean nothingLeft(LocalSandboxRunner runner) {
    try {
      LocalRunners.assertNothingLeft(runner);
      return runProcesses().isEmpty();
    } catch (AssertionError | java.io.IOException e) {
      return false;
    }
  }

  /** This JVM's sandbox processes: those naming one of its run ids, and all below them. */
  private static List<ProcessHandle> runProcesses() {
    String prefix = StateDirectory.PREFIX + ProcessHandle.current().pid() + "-";
    return ProcessHandle.current()
        .descendants()
        .filter(p -> p.info().arguments().map(a -> String.join(" ", a)).orElse("").contains(prefix))
        .toList();
  }

  /**
   * Sandboxes see the host's folders with exclusive file access, which caches what they looked up:
   * one that waited since before a package was installed must not be handed the program that
   * imports it. Root only (it installs into /usr/local, as pip does).
   */
  @Test
  void aPackageInstalledWhileASandboxWaitsIsFoundByTheNextCall() throws Exception {
    Path python = Path.of("/usr/bin/python3").toRealPath();
    Path site =
        Path.of(
            "/usr/local/lib",
            python.getFileName().toString(),
            "dist-packages"); // Debian's python3 looks here first
    assumeTrue(Files.isWritable(site.getParent()), "root, to install into " + site);
    String module = "cinchmcp_installed_" + ProcessHandle.current().pid();
    boolean made = Files.notExists(site);
    Files.createDirectories(site);
    withWarmRunner(
        1,
        runner -> {
          assertTrue(ranWarm(runner, PY), "a sandbox waits, started before the install");
          LocalRunners.awaitPoolFull(runner);
          try {
            Files.writeString(site.resolve(module + ".py"), "X = 42\n");
            RunResult result =
                await(
                    LocalRunners.python(runner, "import " + module + "\nprint(" + module + ".X)"));
            assertEquals("42\n", result.stdout().text(), describe(result));
          } finally {
            Files.deleteIfExists(site.resolve(module + ".py"));
            if (made) {
              Files.deleteIfExists(site);
            }
          }
        });
  }

  private static void killRunProcesses() {
    runProcesses().forEach(ProcessHandle::destroyForcibly);
  }
}
