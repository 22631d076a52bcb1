package dev.cinchmcp.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunListener;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.local.LocalSandboxRunner;
import dev.cinchmcp.backend.local.LocalSandboxSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * Helpers for the tests of the local backend. They need runsc (apt-get install -y runsc), python3
 * and node under /usr. As root on cgroup v1 they run with host cgroups; as another user (.ci/run
 * runs them so too) with the in-sandbox limits, and the tests check what the runner says holds.
 */
public final class LocalRunners {

  private LocalRunners() {}

  /**
   * A runner with its own state directory under {@code dir}, its self-test passed, and no sandboxes
   * started ahead of time: every run is cold.
   */
  public static LocalSandboxRunner runner(Path dir) {
    return usable(LocalSandboxRunner.start(settings(dir, 0)));
  }

  /** The server's settings with the state directory {@code dir} and a pool of {@code size}. */
  public static LocalSandboxSettings settings(Path dir, int size) {
    LocalSandboxSettings d = LocalSandboxSettings.defaults();
    return new LocalSandboxSettings(
        d.runsc(),
        dir,
        d.limits(),
        d.maxConcurrent(),
        d.runscEnvironment(),
        d.hostCgroups(),
        size,
        d.poolIdleLimit(),
        d.hostEtc());
  }

  /** A runner whose pool of {@code size} sandboxes per language is full. */
  public static LocalSandboxRunner warmRunner(Path dir, int size) {
    return warmRunner(settings(dir, size));
  }

  /** A runner of these settings (with a pool) once its pool is full. */
  public static LocalSandboxRunner warmRunner(LocalSandboxSettings settings) {
    LocalSandboxRunner runner = usable(LocalSandboxRunner.start(settings));
    awaitPoolFull(runner);
    return runner;
  }

  /** Waits until every language has its full count of sandboxes waiting. */
  public static void awaitPoolFull(LocalSandboxRunner runner) {
    int size = runner.settings().poolSize(); // both interpreters: these tests need them
    awaitCondition(
        () ->
            runner.waiting(Language.PYTHON) >= size && runner.waiting(Language.JAVASCRIPT) >= size,
        "the pool to fill");
  }

  public static void awaitCondition(BooleanSupplier condition, String what) {
    Await.until(condition::getAsBoolean, Duration.ofSeconds(120), what);
  }

  /**
   * Runs {@code program} and fails unless it ran in a sandbox started ahead of time (the runner
   * says which in its log line for the run).
   */
  public static CompletableFuture<RunResult> warm(LocalSandboxRunner runner, Program program) {
    List<String> lines = new CopyOnWriteArrayList<>();
    RunListener listener =
        new RunListener() {
          @Override
          public void log(Level level, String message) {
            lines.add(message);
          }
        };
    return runner
        .run(program, listener)
        .thenApply(
            result -> {
              assertTrue(lastStartWasWarm(lines), () -> "the run was not warm: " + lines);
              return result;
            });
  }

  /**
   * Whether the last sandbox a run's log names was one started ahead of time (a run whose waiting
   * sandbox died at hand-over names a cold one after it).
   */
  public static boolean lastStartWasWarm(List<String> runLog) {
    String last = "";
    for (String line : runLog) {
      if (line.startsWith("Local sandbox ")
          && (line.endsWith(" started") || line.endsWith("(started ahead of time)"))) {
        last = line;
      }
    }
    return last.endsWith("(started ahead of time)");
  }

  public static CompletableFuture<RunResult> warmPython(LocalSandboxRunner runner, String code) {
    return warm(runner, new Program(code, Language.PYTHON));
  }

  public static CompletableFuture<RunResult> warmJavascript(
      LocalSandboxRunner runner, String code) {
    return warm(runner, new Program(code, Language.JAVASCRIPT));
  }

  /** Waits for the runner's self-test and asserts that it passed. */
  public static LocalSandboxRunner usable(LocalSandboxRunner runner) {
    try {
      Optional<String> failure = runner.selfTestOutcome().get(60, TimeUnit.SECONDS);
      assertTrue(
          failure.isEmpty(), () -> "gVisor must be usable for these tests: " + failure.get());
    } catch (Exception e) {
      throw new AssertionError("the self-test did not finish: " + e, e);
    }
    return runner;
  }

  /** The containers runsc lists in a runner's own state directory. */
  public static List<String> containers(LocalSandboxRunner runner) throws IOException {
    Process list =
        new ProcessBuilder(
                Dependency.runsc().toString(),
                "--root",
                runner.settings().stateDir().resolve("runsc").toString(),
                "list",
                "-quiet")
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    String out = new String(list.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return out.lines().filter(line -> !line.isBlank()).toList();
  }

  public static CompletableFuture<RunResult> python(LocalSandboxRunner runner, String code) {
    return runner.run(new Program(code, Language.PYTHON), RunListener.NONE);
  }

  public static CompletableFuture<RunResult> javascript(LocalSandboxRunner runner, String code) {
    return runner.run(new Program(code, Language.JAVASCRIPT), RunListener.NONE);
  }

  public static RunResult await(CompletableFuture<RunResult> future) {
    try {
      return future.get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("run did not finish: " + e, e);
    }
  }

  public static String describe(RunResult result) {
    return "exit="
        + result.exitCode()
        + " timedOut="
        + result.timedOut()
        + "\nstdout: "
        + result.stdout().text()
        + "\nstderr: "
        + result.stderr().text();
  }

  /** Waits until the runner's sandboxes, state files and bundles are gone, then asserts it. */
  public static void awaitNothingLeft(LocalSandboxRunner runner) throws IOException {
    Path runscRoot = runner.settings().stateDir().resolve("runsc");
    Await.until(
        () ->
            containers(runner).isEmpty()
                && entries(runscRoot).isEmpty()
                && entries(runner.settings().stateDir().resolve("bundles")).isEmpty(),
        Duration.ofSeconds(10),
        "the runner's sandboxes, state files and bundles to go");
    assertNothingLeft(runner);
  }

  public static void assertNothingLeft(LocalSandboxRunner runner) throws IOException {
    assertEquals(List.of(), containers(runner), "runsc list");
    assertEquals(
        List.of(), entries(runner.settings().stateDir().resolve("runsc")), "runsc state files");
    assertEquals(List.of(), entries(runner.settings().stateDir().resolve("bundles")), "bundles");
  }

  /** The run cgroups this JVM still has (named cinchmcp-<our pid>-n). */
  public static List<String> ownCgroups() throws IOException {
    String prefix = "cinchmcp-" + ProcessHandle.current().pid() + "-";
    Path memory = null;
    for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
      String[] parts = line.split(":", 3);
      if (parts.length == 3 && List.of(parts[1].split(",")).contains("memory")) {
        memory = Path.of("/sys/fs/cgroup/memory", parts[2].substring(1), "cinchmcp");
      }
    }
    if (memory == null || !Files.isDirectory(memory)) {
      return List.of();
    }
    return entries(memory).stream().filter(name -> name.startsWith(prefix)).toList();
  }

  public static List<String> entries(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> list = Files.list(dir)) {
      return list.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }
}
