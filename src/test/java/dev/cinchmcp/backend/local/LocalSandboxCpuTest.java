package dev.cinchmcp.backend.local;

import static dev.cinchmcp.testkit.LocalRunners.await;
import static dev.cinchmcp.testkit.LocalRunners.describe;
import static dev.cinchmcp.testkit.LocalRunners.python;
import static dev.cinchmcp.testkit.Requires.Need.GVISOR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.config.SandboxLimits;
import dev.cinchmcp.testkit.Await;
import dev.cinchmcp.testkit.LocalRunners;
import dev.cinchmcp.testkit.Requires;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CPU share holds: the run's cgroup carries the quota of half a CPU (or the share the user
 * set), and the kernel throttles a busy program to it. Wall times are not compared (on a busy
 * 2-core machine they say more about the neighbours than about the limit); the kernel's own
 * throttling count is.
 */
@Requires(GVISOR)
class LocalSandboxCpuTest {

  @TempDir Path state;

  @Test
  void aBusyProgramIsHeldToHalfACpu() throws Exception {
    try (LocalSandboxRunner runner = LocalRunners.runner(state)) {
      assertHeldTo(runner, 3, "50000", "half a CPU");
    }
  }

  /**
   * {@code CINCH_SANDBOX_CPUS}: the share the user set is the run's quota (a quarter of a CPU
   * here), and the kernel throttles a busy program to it.
   */
  @Test
  void aBusyProgramIsHeldToTheShareTheUserSet() throws Exception {
    try (LocalSandboxRunner runner =
        LocalRunners.usable(
            LocalSandboxRunner.start(
                LocalSandboxSettings.defaults()
                    .withStateDir(state)
                    .withPoolSize(0)
                    .withLimits(new SandboxLimits(10, 256, 0.25))))) {
      assertHeldTo(runner, 2, "25000", "0.25 CPUs"); // first: it skips where no cgroups hold
      assertTrue(runner.limits().describe().endsWith("0.25 CPUs"), runner.limits().describe());
    }
  }

  /** A program busy for {@code seconds} runs with {@code quota} per 100 ms and is throttled. */
  private static void assertHeldTo(
      LocalSandboxRunner runner, int seconds, String quota, String share) throws Exception {
    assumeTrue(
        runner.limits().hostCgroupsHold(),
        "no host cgroups for this user; the runner says the CPU is not limited");
    assertTrue(runner.limits().summary().contains(share), runner.limits().summary());
    CompletableFuture<RunResult> busy =
        python(
            runner,
            "import time\nend = time.monotonic() + "
                + seconds
                + "\nwhile time.monotonic() < end:\n    pass\nprint('done')");
    Path cgroup = awaitRunCgroup();
    assertEquals(quota, Files.readString(cgroup.resolve("cpu.cfs_quota_us")).strip());
    assertEquals("100000", Files.readString(cgroup.resolve("cpu.cfs_period_us")).strip());
    long[] throttled = {0};
    Await.until(
        () ->
            busy.isDone()
                || (throttled[0] = RunCgroup.counter(cgroup.resolve("cpu.stat"), "nr_throttled"))
                    > 0,
        Duration.ofSeconds(30),
        "the busy program to be throttled, or to end");
    assertTrue(throttled[0] > 0, "the kernel never throttled a busy program at " + share);
    RunResult result = await(busy);
    assertEquals("done\n", result.stdout().text(), describe(result));
  }

  /**
   * On a machine of two cores or fewer, four busy sandboxes would take every core: together they
   * are held off a reserve, on the parent of their cgroups. With three or more, they are not held.
   */
  @Test
  void allSandboxesTogetherLeaveAReserveOnSmallMachines() throws Exception {
    try (LocalSandboxRunner runner = LocalRunners.runner(state)) {
      assumeTrue(runner.limits().hostCgroupsHold(), "no host cgroups for this user");
      Path parent = ownCpuCgroup().resolve(HostCgroups.PARENT);
      String quota = Files.readString(parent.resolve("cpu.cfs_quota_us")).strip();
      int cores = Runtime.getRuntime().availableProcessors();
      if (cores == 2) {
        assertEquals("5000", Files.readString(parent.resolve("cpu.cfs_period_us")).strip());
        assertEquals("7500", quota, "1.5 of 2 cores");
        assertTrue(
            runner.limits().summary().contains("all sandboxes together at most 1.5 of 2 cores"),
            runner.limits().summary());
      } else if (cores >= 3) {
        assertEquals("-1", quota);
        assertFalse(runner.limits().summary().contains("together"), runner.limits().summary());
      }
    }
  }

  private static boolean hasQuota(Path cgroup) {
    try {
      return !Files.readString(cgroup.resolve("cpu.cfs_quota_us")).strip().equals("-1");
    } catch (java.io.IOException e) {
      return false; // not there yet, or gone
    }
  }

  /** This JVM's own cgroup in the cgroup v1 cpu hierarchy. */
  private static Path ownCpuCgroup() throws IOException {
    String own = null;
    for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
      String[] parts = line.split(":", 3);
      if (parts.length == 3 && List.of(parts[1].split(",")).contains("cpu")) {
        own = parts[2];
      }
    }
    return Path.of("/sys/fs/cgroup/cpu", own.substring(1));
  }

  /** The cpu cgroup directory of this JVM's one running sandbox, once its quota is set. */
  private static Path awaitRunCgroup() throws Exception {
    String prefix = StateDirectory.PREFIX + ProcessHandle.current().pid() + "-";
    Path parent = ownCpuCgroup().resolve(HostCgroups.PARENT);
    return Await.untilPresent(
        () -> {
          try (var runs = Files.list(parent)) {
            // Made by the runner as a directory first, its limits written after: one with a quota.
            return runs.filter(p -> p.getFileName().toString().startsWith(prefix))
                .filter(p -> !p.getFileName().toString().endsWith("-cgroup-check"))
                .filter(LocalSandboxCpuTest::hasQuota)
                .findFirst();
          }
        },
        Duration.ofSeconds(20),
        "the run's cgroup under " + parent);
  }
}
