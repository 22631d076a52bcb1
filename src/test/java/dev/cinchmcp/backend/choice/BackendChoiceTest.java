package dev.cinchmcp.backend.choice;

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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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
    assertEquals(SandboxFacts.SERVICE_RUNTIMES, c.facts().runtimes());
    assertTrue(c.summary().startsWith("backend cinch"), c.summary());
    assertEquals(SandboxFacts.STANDARD_LIBRARY_ONLY, c.facts().packages());
    assertEquals(0, localProbes.get());
  }

  @Test
  @Requires(GVISOR)
  void autoWithoutAKeyRunsLocallyWhenGvisorWorks() throws Exception {
    BackendChoice c = choose();
    assertTrue(c.usable(), c.problems().toString());
    assertEquals("local", c.runner().name());
    assertTrue(c.summary().startsWith("backend local"), c.summary());
    assertTrue(c.facts().runtimes().contains("Python"), c.facts().runtimes());
    // What the description promises is what holds here (root on cgroup v1 in CI: all of it).
    assertTrue(c.facts().limits().startsWith("10 seconds, 256 MB of memory"), c.facts().limits());
    assertTrue(c.summary().contains("limits held: "), c.summary());
    assertTrue(c.facts().packages().contains("installed under /usr"), c.facts().packages());
    assertRuns(c, "local", 30);
  }

  @Test
  void autoWithoutAKeyOrGvisorIsTheMissingKeyErrorAndNothingRuns() throws Exception {
    BackendChoice c = choose("CINCH_RUNSC", noRunsc());
    assertFalse(c.usable());
    RunFailure f = failureOfAMarkingProgram(c);
    assertEquals(RunFailure.Kind.MISCONFIGURED, f.kind());
    assertSays(f, "CINCH_API_KEY is not set", "No local gVisor sandbox could stand in");
  }

  @Test
  void localWithoutGvisorSaysWhatToInstallAndNothingRuns() throws Exception {
    BackendChoice c =
        choose("CINCH_BACKEND", "local", "CINCH_RUNSC", noRunsc(), "CINCH_API_KEY", "cinch_live_x");
    assertFalse(c.usable());
    assertEquals("local", c.runner().name());
    RunFailure f = failureOfAMarkingProgram(c);
    assertEquals(RunFailure.Kind.SANDBOX_UNAVAILABLE, f.kind());
    assertSays(f, "install gVisor");
  }

  /** A mistake in the settings is reported as it is: no backend is guessed, no sandbox probed. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "explicit cinch without a key, even with gVisor | CINCH_BACKEND=cinch"
            + " | CINCH_API_KEY is not set",
        "auto without a key but with another mistake | CINCH_TIMEOUT_MS=soon | CINCH_TIMEOUT_MS",
        "an unknown backend | CINCH_BACKEND=kubernetes CINCH_API_KEY=cinch_live_x"
            + " | CINCH_BACKEND must be auto, cinch, local or docker",
        "auto without a key, a bad docker pool | CINCH_DOCKER_POOL=9"
            + " | CINCH_DOCKER_POOL must be a whole number from 0 to 8",
        "explicit docker, a bad docker pool | CINCH_BACKEND=docker CINCH_DOCKER_POOL=many"
            + " | CINCH_DOCKER_POOL must be a whole number from 0 to 8"
      })
  void aMistakeIsReportedRatherThanGuessedAround(String what, String env, String message)
      throws Exception {
    assertSays(failureOf(refused(env), "print(1)"), message);
  }

  /**
   * A sandbox limit set wrong (CINCH_SANDBOX_*) is refused by the backends that would hold it: no
   * sandbox is probed, no engine asked, and every call answers with the variable, the value and the
   * range. Without a key the missing key is not what the user is told to fix.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "local | CINCH_BACKEND=local CINCH_SANDBOX_TIME_LIMIT_S=0"
            + " | CINCH_SANDBOX_TIME_LIMIT_S must be a whole number of seconds from 1 to 300"
            + " (was \"0\")",
        "docker | CINCH_BACKEND=docker CINCH_SANDBOX_MEMORY_MB=32"
            + " | CINCH_SANDBOX_MEMORY_MB must be a whole number of megabytes from 64 to 8192"
            + " (was \"32\")",
        "auto without a key | CINCH_SANDBOX_CPUS=lots"
            + " | CINCH_SANDBOX_CPUS must be a number of CPUs from 0.1 to",
        "auto with a key | CINCH_API_KEY=cinch_live_x CINCH_SANDBOX_CPUS=0"
            + " | CINCH_SANDBOX_CPUS must be a number of CPUs from 0.1 to"
      })
  void aBadSandboxLimitIsRefusedOnEveryCall(String what, String env, String message)
      throws Exception {
    BackendChoice c = refused(env);
    assertEquals("none", c.runner().name());
    assertTrue(c.problems().get(0).startsWith(message.substring(0, 30)), c.problems().toString());
    for (int call = 0; call < 2; call++) {
      RunFailure f = failureOfAMarkingProgram(c);
      assertEquals(RunFailure.Kind.MISCONFIGURED, f.kind());
      assertSays(f, message);
      assertFalse(
          !what.contains("with a key") && f.getMessage().contains("CINCH_API_KEY is not set"),
          f.getMessage());
    }
  }

  @Test
  void theCinchApiKeepsTheServiceLimitsAndSaysTheVariablesAreForSandboxesHere() {
    BackendChoice c =
        choose(
            "CINCH_API_KEY",
            "cinch_live_x",
            "CINCH_BASE_URL",
            "http://127.0.0.1:9",
            "CINCH_SANDBOX_TIME_LIMIT_S",
            "60");
    assertTrue(c.usable(), c.problems().toString());
    assertEquals(SandboxFacts.SERVICE_LIMITS, c.facts().limits());
    assertEquals(10, c.facts().timeLimitSeconds());
    assertTrue(
        c.summary().contains("limits: the service's (10 seconds, 256 MB of memory, half a CPU)"),
        c.summary());
    assertTrue(c.summary().contains("apply to the local and docker backends only"), c.summary());
  }

  @Test
  @Requires(GVISOR)
  void localStatesTheLimitsTheUserSet() throws Exception {
    BackendChoice c =
        choose(
            "CINCH_BACKEND",
            "local",
            "CINCH_LOCAL_POOL",
            "0",
            "CINCH_SANDBOX_TIME_LIMIT_S",
            "30",
            "CINCH_SANDBOX_MEMORY_MB",
            "512",
            "CINCH_SANDBOX_CPUS",
            "1");
    assertTrue(c.usable(), c.problems().toString());
    assertTrue(c.facts().limits().startsWith("30 seconds, 512 MB of memory"), c.facts().limits());
    assertTrue(c.summary().contains("limits held: 30 s, 512 MB"), c.summary());
    assertEquals(30, c.facts().timeLimitSeconds());
    assertEquals("30 s", c.facts().timeLimit());
  }

  @Test
  void dockerWithoutAnEngineSaysWhatToStartAndNothingRuns() throws Exception {
    BackendChoice c =
        choose(
            "CINCH_BACKEND", "docker", "DOCKER_HOST", noEngine(), "CINCH_API_KEY", "cinch_live_x");
    assertFalse(c.usable());
    assertEquals("docker", c.runner().name());
    assertEquals(0, localProbes.get());
    assertTrue(c.summary().startsWith("backend docker: UNAVAILABLE"), c.summary());
    RunFailure f = failureOfAMarkingProgram(c);
    assertEquals(RunFailure.Kind.SANDBOX_UNAVAILABLE, f.kind());
    assertSays(f, "no container engine answered at unix://", "(DOCKER_HOST)");
  }

  @Test
  void autoWithoutAKeyOrGvisorOrAnEngineSaysWhyNeitherCouldStandIn() throws Exception {
    BackendChoice c = choose("CINCH_RUNSC", noRunsc(), "DOCKER_HOST", noEngine());
    assertFalse(c.usable());
    RunFailure f = failureOf(c, "print(1)");
    assertSays(f, "no container engine answered either");
  }

  @Test
  @Requires(ENGINE)
  void autoWithoutAKeyOrGvisorRunsInTheEngineWhenOneAnswers() throws Exception {
    BackendChoice c =
        choose(
            "CINCH_RUNSC",
            noRunsc(),
            "DOCKER_HOST",
            TestEngine.host(),
            "CINCH_DOCKER_PYTHON_IMAGE",
            TestEngine.image(),
            "CINCH_DOCKER_RUNTIME",
            "runsc");
    assertTrue(c.usable(), c.problems().toString());
    assertEquals("docker", c.runner().name());
    assertEquals("gVisor", c.facts().isolation());
    assertTrue(c.summary().startsWith("backend docker: "), c.summary());
    assertTrue(c.facts().limits().startsWith("10 seconds, 256 MB of memory"), c.facts().limits());
    assertRuns(c, "docker", 60);
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

  /**
   * Runs a program that would leave a mark on the host, asserts that it left none (nothing ran
   * outside a sandbox), and returns how the run failed.
   */
  /** The choice for {@code env}, which must refuse to run anything without probing a sandbox. */
  private BackendChoice refused(String env) {
    BackendChoice c = choose(env.split("[ =]"));
    assertFalse(c.usable());
    assertEquals(0, localProbes.get());
    return c;
  }

  private RunFailure failureOfAMarkingProgram(BackendChoice choice) throws Exception {
    Path mark = tmp.resolve("ran-outside");
    RunFailure f = failureOf(choice, "open(" + pythonString(mark) + ", 'w').write('x')");
    assertFalse(Files.exists(mark), "the program ran outside the sandbox");
    return f;
  }

  private static void assertSays(RunFailure f, String... parts) {
    for (String part : parts) {
      assertTrue(f.getMessage().contains(part), f.getMessage());
    }
  }

  /** Runs {@code print(6 * 7)} and asserts that {@code backend} answered it. */
  private static void assertRuns(BackendChoice c, String backend, int seconds) throws Exception {
    RunResult r =
        c.runner()
            .run(new Program("print(6 * 7)", Language.PYTHON), RunListener.NONE)
            .get(seconds, TimeUnit.SECONDS);
    assertEquals("42\n", r.stdout().text());
    assertEquals(backend, r.backend());
  }

  /** A CINCH_RUNSC that points at nothing: gVisor is absent. */
  private String noRunsc() {
    return tmp.resolve("no-runsc").toString();
  }

  /** A DOCKER_HOST where no engine answers. */
  private String noEngine() {
    return "unix://" + tmp.resolve("no-engine.sock");
  }

  private static String pythonString(Path p) {
    return "'" + p.toString().replace("\\", "\\\\").replace("'", "\\'") + "'";
  }
}
