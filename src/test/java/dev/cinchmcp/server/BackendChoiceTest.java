package dev.cinchmcp.server;

import static dev.cinchmcp.testkit.Requires.Need.ENGINE;
import static dev.cinchmcp.testkit.Requires.Need.GVISOR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunListener;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.SandboxFacts;
import dev.cinchmcp.backend.local.LocalSandboxRunner;
import dev.cinchmcp.config.Settings;
import dev.cinchmcp.testkit.Requires;
import dev.cinchmcp.testkit.TestEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CINCH_BACKEND: which backend serves in each situation. The local cases run real gVisor (installed
 * by .ci/run); "runsc absent" is simulated with CINCH_RUNSC pointing at nothing, and a program that
 * would leave a mark on the host shows that nothing ran outside the sandbox.
 */
class BackendChoiceTest {

  private final ExecutorService workers = Executors.newCachedThreadPool();
  private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
  private final AtomicInteger localProbes = new AtomicInteger();
  private BackendChoice choice;

  @TempDir Path tmp;

  @AfterEach
  void close() throws Exception {
    if (choice != null && choice.runner() instanceof AutoCloseable c) {
      c.close();
    }
    workers.shutdownNow();
    timers.shutdownNow();
  }

  private BackendChoice choose(String... env) {
    Map<String, String> map = new HashMap<>();
    for (int i = 0; i < env.length; i += 2) {
      map.put(env[i], env[i + 1]);
    }
    BiFunction<Settings, CompletableFuture<?>, LocalSandboxRunner> countingStart =
        (local, after) -> {
          localProbes.incrementAndGet();
          return BackendChoice.startLocal(local, after);
        };
    choice =
        BackendChoice.choose(
            Settings.fromEnvironment(map),
            CompletableFuture.completedFuture(null),
            workers,
            timers,
            countingStart);
    return choice;
  }

  private static RunFailure failureOf(BackendChoice choice, String code) throws Exception {
    try {
      RunResult r =
          choice
              .runner()
              .run(new Program(code, Language.PYTHON), RunListener.NONE)
              .get(30, TimeUnit.SECONDS);
      throw new AssertionError("expected a failure, got " + r);
    } catch (ExecutionException e) {
      return assertInstanceOf(RunFailure.class, e.getCause());
    }
  }

  @Test
  void autoWithAKeyIsTheCinchApiAndProbesNoSandbox() {
    BackendChoice c =
        choose("CINCH_API_KEY", "cinch_live_x", "CINCH_BASE_URL", "http://127.0.0.1:9");
    assertTrue(c.usable());
    assertEquals("cinch", c.runner().name());
    assertEquals(BackendChoice.CINCH_RUNTIMES, c.runtimes());
    assertTrue(c.summary().startsWith("backend cinch"), c.summary());
    assertEquals(SandboxFacts.STANDARD_LIBRARY_ONLY, c.packages());
    assertEquals(0, localProbes.get());
  }

  @Test
  @Requires(GVISOR)
  void autoWithoutAKeyRunsLocallyWhenGvisorWorks() throws Exception {
    BackendChoice c = choose();
    assertTrue(c.usable(), c.problems().toString());
    assertEquals("local", c.runner().name());
    assertTrue(c.summary().startsWith("backend local"), c.summary());
    assertTrue(c.runtimes().contains("Python"), c.runtimes());
    // What the description promises is what holds here (root on cgroup v1 in CI: all of it).
    assertTrue(c.limits().startsWith("10 seconds, 256 MB of memory"), c.limits());
    assertTrue(c.summary().contains("limits held: "), c.summary());
    assertTrue(c.packages().contains("installed under /usr"), c.packages());
    RunResult r =
        c.runner()
            .run(new Program("print(6 * 7)", Language.PYTHON), RunListener.NONE)
            .get(30, TimeUnit.SECONDS);
    assertEquals("42\n", r.stdout().text());
    assertEquals("local", r.backend());
  }

  @Test
  void autoWithoutAKeyOrGvisorIsTheMissingKeyErrorAndNothingRuns() throws Exception {
    Path mark = tmp.resolve("ran-outside");
    BackendChoice c = choose("CINCH_RUNSC", tmp.resolve("no-runsc").toString());
    assertFalse(c.usable());
    RunFailure f = failureOf(c, "open(" + pythonString(mark) + ", 'w').write('x')");
    assertEquals(RunFailure.Kind.MISCONFIGURED, f.kind());
    assertTrue(f.getMessage().contains("CINCH_API_KEY is not set"), f.getMessage());
    assertTrue(f.getMessage().contains("No local gVisor sandbox could stand in"), f.getMessage());
    assertFalse(Files.exists(mark), "the program ran outside the sandbox");
  }

  @Test
  void localWithoutGvisorSaysWhatToInstallAndNothingRuns() throws Exception {
    Path mark = tmp.resolve("ran-outside");
    BackendChoice c =
        choose(
            "CINCH_BACKEND",
            "local",
            "CINCH_RUNSC",
            tmp.resolve("no-runsc").toString(),
            "CINCH_API_KEY",
            "cinch_live_x");
    assertFalse(c.usable());
    assertEquals("local", c.runner().name());
    RunFailure f = failureOf(c, "open(" + pythonString(mark) + ", 'w').write('x')");
    assertEquals(RunFailure.Kind.SANDBOX_UNAVAILABLE, f.kind());
    assertTrue(f.getMessage().contains("install gVisor"), f.getMessage());
    assertFalse(Files.exists(mark), "the program ran outside the sandbox");
  }

  @Test
  void explicitCinchWithoutAKeyIsMisconfiguredEvenWithGvisor() throws Exception {
    BackendChoice c = choose("CINCH_BACKEND", "cinch");
    assertFalse(c.usable());
    assertEquals(0, localProbes.get());
    assertTrue(failureOf(c, "print(1)").getMessage().contains("CINCH_API_KEY is not set"));
  }

  @Test
  void autoWithoutAKeyButAnotherMistakeReportsItRatherThanGuessing() throws Exception {
    BackendChoice c = choose("CINCH_TIMEOUT_MS", "soon");
    assertFalse(c.usable());
    assertEquals(0, localProbes.get());
    assertTrue(failureOf(c, "print(1)").getMessage().contains("CINCH_TIMEOUT_MS"));
  }

  @Test
  void unknownBackendNamesTheVariable() throws Exception {
    BackendChoice c = choose("CINCH_BACKEND", "kubernetes", "CINCH_API_KEY", "cinch_live_x");
    assertFalse(c.usable());
    assertTrue(
        failureOf(c, "print(1)")
            .getMessage()
            .contains("CINCH_BACKEND must be auto, cinch, local or docker"));
  }

  @Test
  void dockerWithoutAnEngineSaysWhatToStartAndNothingRuns() throws Exception {
    Path mark = tmp.resolve("ran-outside");
    BackendChoice c =
        choose(
            "CINCH_BACKEND",
            "docker",
            "DOCKER_HOST",
            "unix://" + tmp.resolve("no-engine.sock"),
            "CINCH_API_KEY",
            "cinch_live_x");
    assertFalse(c.usable());
    assertEquals("docker", c.runner().name());
    assertEquals(0, localProbes.get());
    assertTrue(c.summary().startsWith("backend docker: UNAVAILABLE"), c.summary());
    RunFailure f = failureOf(c, "open(" + pythonString(mark) + ", 'w').write('x')");
    assertEquals(RunFailure.Kind.SANDBOX_UNAVAILABLE, f.kind());
    assertTrue(f.getMessage().contains("no container engine answered at unix://"), f.getMessage());
    assertTrue(f.getMessage().contains("(DOCKER_HOST)"), f.getMessage());
    assertFalse(Files.exists(mark), "the program ran outside the sandbox");
  }

  @Test
  void autoWithoutAKeyOrGvisorOrAnEngineSaysWhyNeitherCouldStandIn() throws Exception {
    BackendChoice c =
        choose(
            "CINCH_RUNSC",
            tmp.resolve("no-runsc").toString(),
            "DOCKER_HOST",
            "unix://" + tmp.resolve("no-engine.sock"));
    assertFalse(c.usable());
    RunFailure f = failureOf(c, "print(1)");
    assertTrue(f.getMessage().contains("no container engine answered either"), f.getMessage());
  }

  @Test
  @Requires(ENGINE)
  void autoWithoutAKeyOrGvisorRunsInTheEngineWhenOneAnswers() throws Exception {
    BackendChoice c =
        choose(
            "CINCH_RUNSC",
            tmp.resolve("no-runsc").toString(),
            "DOCKER_HOST",
            TestEngine.host(),
            "CINCH_DOCKER_PYTHON_IMAGE",
            TestEngine.image(),
            "CINCH_DOCKER_RUNTIME",
            "runsc");
    assertTrue(c.usable(), c.problems().toString());
    assertEquals("docker", c.runner().name());
    assertEquals("gVisor", c.isolation());
    assertTrue(c.summary().startsWith("backend docker: "), c.summary());
    assertTrue(c.limits().startsWith("10 seconds, 256 MB of memory"), c.limits());
    RunResult r =
        c.runner()
            .run(new Program("print(6 * 7)", Language.PYTHON), RunListener.NONE)
            .get(60, TimeUnit.SECONDS);
    assertEquals("42\n", r.stdout().text());
    assertEquals("docker", r.backend());
  }

  @Test
  @Requires(ENGINE)
  void dockerWithARuntimeTheEngineLacksSaysWhichItHas() throws Exception {
    BackendChoice c =
        choose(
            "CINCH_BACKEND",
            "docker",
            "DOCKER_HOST",
            TestEngine.host(),
            "CINCH_DOCKER_RUNTIME",
            "crun");
    assertFalse(c.usable());
    assertTrue(c.problems().get(0).contains("no runtime \"crun\""), c.problems().toString());
  }

  private static String pythonString(Path p) {
    return "'" + p.toString().replace("\\", "\\\\").replace("'", "\\'") + "'";
  }
}
