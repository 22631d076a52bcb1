package dev.cinchmcp.backend.local;

import static dev.cinchmcp.testkit.LocalRunners.await;
import static dev.cinchmcp.testkit.LocalRunners.describe;
import static dev.cinchmcp.testkit.Requires.Need.GVISOR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.config.SandboxLimits;
import dev.cinchmcp.testkit.LocalRunners;
import dev.cinchmcp.testkit.Requires;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The limits a user sets ({@code CINCH_SANDBOX_*}, here 2 s and 128 MB) are the limits that hold,
 * in a sandbox started ahead of time with the limits this machine gives ({@code machine}: host
 * cgroups as root, none as another user) and in a cold one with the in-sandbox limits alone ({@code
 * inside}): a sleep of 5 s is stopped, and 200 MB, which the default 256 MB allows ({@link
 * LocalSandboxMemoryTest}), is refused. The CPU share is {@link LocalSandboxCpuTest}'s.
 */
@Requires(GVISOR)
class LocalSandboxLimitsTest {

  static final SandboxLimits SET = new SandboxLimits(2, 128, 1);

  @TempDir static Path state;
  static LocalSandboxRunner machine;
  static LocalSandboxRunner inside;

  @BeforeAll
  static void start() {
    // One run at a time in each, as LocalSandboxMemoryTest does: gVisor fills a large allocation
    // page by page, and several at once on two cores could reach the 2 s limit first.
    machine =
        LocalRunners.warmRunner(
            LocalSandboxSettings.defaults()
                .withStateDir(state.resolve("machine"))
                .withPoolSize(1)
                .withMaxConcurrent(1)
                .withLimits(SET));
    inside =
        LocalRunners.usable(
            LocalSandboxRunner.start(
                LocalSandboxSettings.defaults()
                    .withStateDir(state.resolve("inside"))
                    .withPoolSize(0)
                    .withMaxConcurrent(1)
                    .withoutHostCgroups()
                    .withLimits(SET)));
  }

  @AfterAll
  static void stop() {
    machine.close();
    inside.close();
  }

  private static Map<String, LocalSandboxRunner> both() {
    return Map.of("machine", machine, "inside", inside);
  }

  @Test
  void aSleepOfFiveSecondsIsStoppedAtTwo() {
    pythonInBoth("import time\nprint('before', flush=True)\ntime.sleep(5)")
        .forEach(
            (where, result) -> {
              assertTrue(result.timedOut(), where);
              assertEquals("before\n", result.stdout().text(), where);
              assertTrue(result.stderr().text().contains("reached its 2 s time limit"), where);
            });
  }

  /** The results of {@code code} in both runners, by where it ran and how it ended. */
  private static Map<String, RunResult> pythonInBoth(String code) {
    Map<String, RunResult> results = new TreeMap<>();
    both()
        .forEach(
            (name, runner) -> {
              RunResult result = await(LocalRunners.python(runner, code));
              results.put(name + " " + describe(result), result);
            });
    return results;
  }

  @Test
  void twoHundredMegabytesAreRefusedInPython() {
    assertRefused(
        mb -> LocalRunners.python(mb.getValue(), "b = bytearray(200 * 2**20)\nprint('200 MB ok')"),
        "MemoryError");
  }

  @Test
  void twoHundredMegabytesAreRefusedInNode() {
    assertRefused(
        mb ->
            LocalRunners.javascript(
                mb.getValue(),
                "const b = Buffer.alloc(200 * 2**20, 1); "
                    + LocalSandboxMemoryTest.HOLD
                    + " console.log('200 MB ok')"),
        "[sandbox] killed: the program used more than its 128 MB");
  }

  @Test
  void fortyMegabytesPass() {
    pythonInBoth("b = bytearray(40 * 2**20)\nprint('40 MB ok')")
        .forEach((where, result) -> assertEquals("40 MB ok\n", result.stdout().text(), where));
  }

  @Test
  void theLimitsSaidAreTheLimitsSet() {
    EnforcedLimits limits = machine.limits();
    if (limits.hostCgroupsHold()) {
      assertTrue(
          limits.describe().equals("2 seconds, 128 MB of memory, 64 processes, 1 CPU"),
          limits.describe());
      assertTrue(limits.summary().startsWith("limits held: 2 s, 128 MB, 64 processes, 1 CPU"));
    } else {
      assertTrue(limits.summary().startsWith("limits held: 2 s, 128 MB per process"));
    }
    assertTrue(
        inside.limits().summary().startsWith("limits held: 2 s, 128 MB per process"),
        inside.limits().summary());
  }

  private static void assertRefused(
      Function<
              Map.Entry<String, LocalSandboxRunner>,
              java.util.concurrent.CompletableFuture<RunResult>>
          program,
      String pythonSays) {
    for (var runner : both().entrySet()) {
      RunResult result = await(program.apply(runner));
      String where = runner.getKey() + " " + describe(result);
      assertEquals("", result.stdout().text(), where);
      assertFalse(result.succeeded(), where);
      assertTrue(
          result.stderr().text().contains(pythonSays)
              || result.stderr().text().contains("more than its 128 MB of memory"),
          where);
    }
  }
}
