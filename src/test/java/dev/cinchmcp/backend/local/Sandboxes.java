package dev.cinchmcp.backend.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunListener;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.testkit.Await;
import dev.cinchmcp.testkit.Dependency;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Helpers for the tests of the local backend. They need runsc (apt-get install -y runsc), python3
 * and node under /usr. As root on cgroup v1 they run with host cgroups; as another user (.ci/run
 * runs them so too) with the in-sandbox limits, and the tests check what the runner says holds.
 */
final class Sandboxes {

  private Sandboxes() {}

  /**
   * A runner with its own state directory under {@code dir}, its self-test passed, and no sandboxes
   * started ahead of time: every run is cold.
   */
  static LocalSandboxRunner runner(Path dir) {
    return usable(
        LocalSandboxRunner.start(
            LocalSandboxSettings.defaults().withStateDir(dir).withPoolSize(0)));
  }

  /** A runner whose pool of {@code size} sandboxes per language is full. */
  static LocalSandboxRunner warmRunner(Path dir, int size) {
    return warmRunner(LocalSandboxSettings.defaults().withStateDir(dir).withPoolSize(size));
  }

  /** A runner of these settings (with a pool) once its pool is full. */
  static LocalSandboxRunner warmRunner(LocalSandboxSettings settings) {
    LocalSandboxRunner runner = usable(LocalSandboxRunner.start(settings));
    awaitPoolFull(runner);
    return runner;
  }

  /** Waits until every language has its full count of sandboxes waiting. */
  static void awaitPoolFull(LocalSandboxRunner runner) {
    awaitCondition(runner::poolFull, "the pool to fill");
  }

  static void awaitCondition(java.util.function.BooleanSupplier condition, String what) {
    Await.until(condition::getAsBoolean, Duration.ofSeconds(120), what);
  }

  /**
   * Runs {@code program} and fails unless it ran in a sandbox started ahead of time (the runner
   * says which in its log line for the run).
   */
  static CompletableFuture<RunResult> warm(LocalSandboxRunner runner, Program program) {
    List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
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
  static boolean lastStartWasWarm(List<String> runLog) {
    String last = "";
    for (String line : runLog) {
      if (line.startsWith("Local sandbox ")
          && (line.endsWith(" started") || line.endsWith("(started ahead of time)"))) {
        last = line;
      }
    }
    return last.endsWith("(started ahead of time)");
  }

  static CompletableFuture<RunResult> warmPython(LocalSandboxRunner runner, String code) {
    return warm(runner, new Program(code, Language.PYTHON));
  }

  static CompletableFuture<RunResult> warmJavascript(LocalSandboxRunner runner, String code) {
    return warm(runner, new Program(code, Language.JAVASCRIPT));
  }

  /** Waits for the runner's self-test and asserts that it passed. */
  static LocalSandboxRunner usable(LocalSandboxRunner runner) {
    try {
      Optional<String> failure = runner.selfTestOutcome().get(60, TimeUnit.SECONDS);
      assertTrue(
          failure.isEmpty(), () -> "gVisor must be usable for these tests: " + failure.get());
    } catch (Exception e) {
      throw new AssertionError("the self-test did not finish: " + e, e);
    }
    return runner;
  }

  /** The runsc of a runner's own state directory, for looking at its containers. */
  static Runsc runsc(LocalSandboxRunner runner) {
    return new Runsc(
        Dependency.runsc(),
        runner.stateDir().resolve("runsc"),
        runner.settings().runscEnvironment());
  }

  static CompletableFuture<RunResult> python(LocalSandboxRunner runner, String code) {
    return runner.run(new Program(code, Language.PYTHON), RunListener.NONE);
  }

  static CompletableFuture<RunResult> javascript(LocalSandboxRunner runner, String code) {
    return runner.run(new Program(code, Language.JAVASCRIPT), RunListener.NONE);
  }

  static RunResult await(CompletableFuture<RunResult> future) {
    try {
      return future.get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("run did not finish: " + e, e);
    }
  }

  static String describe(RunResult result) {
    return "exit="
        + result.exitCode()
        + " timedOut="
        + result.timedOut()
        + "\nstdout: "
        + result.stdout().text()
        + "\nstderr: "
        + result.stderr().text();
  }

  /** Asserts that the runner left nothing behind: no container, no bundle, no cgroup of its own. */
  /** Waits until the runner's sandboxes, state files and bundles are gone, then asserts it. */
  static void awaitNothingLeft(LocalSandboxRunner runner) throws IOException {
    Runsc runsc = runsc(runner);
    Await.until(
        () ->
            runsc.list().isEmpty()
                && entries(runsc.root()).isEmpty()
                && entries(runner.stateDir().resolve("bundles")).isEmpty(),
        Duration.ofSeconds(10),
        "the runner's sandboxes, state files and bundles to go");
    assertNothingLeft(runner);
  }

  static void assertNothingLeft(LocalSandboxRunner runner) throws IOException {
    Runsc runsc = runsc(runner);
    assertEquals(List.of(), runsc.list(), "runsc list");
    assertEquals(List.of(), entries(runsc.root()), "runsc state files");
    assertEquals(List.of(), entries(runner.stateDir().resolve("bundles")), "bundles");
  }

  /** The run cgroups this JVM still has (named cinchmcp-<our pid>-n). */
  static List<String> ownCgroups() throws IOException {
    String prefix = Housekeeping.PREFIX + ProcessHandle.current().pid() + "-";
    Path memory = null;
    for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
      String[] parts = line.split(":", 3);
      if (parts.length == 3 && List.of(parts[1].split(",")).contains("memory")) {
        memory = Path.of("/sys/fs/cgroup/memory", parts[2].substring(1), HostCgroups.PARENT);
      }
    }
    if (memory == null || !Files.isDirectory(memory)) {
      return List.of();
    }
    return entries(memory).stream().filter(name -> name.startsWith(prefix)).toList();
  }

  static List<String> entries(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> list = Files.list(dir)) {
      return list.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }
}
