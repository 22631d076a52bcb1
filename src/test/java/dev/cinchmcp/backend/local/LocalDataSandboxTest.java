package dev.cinchmcp.backend.local;

import static dev.cinchmcp.testkit.LocalRunners.await;
import static dev.cinchmcp.testkit.LocalRunners.describe;
import static dev.cinchmcp.testkit.Requires.Need.GVISOR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.testkit.Await;
import dev.cinchmcp.testkit.LocalRunners;
import dev.cinchmcp.testkit.Requires;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Data sandboxes of the runner itself, with real gVisor and the host's numpy: what the program
 * sees, the memory limit with the imports in it, and the CPU cap from the hand-over. CI runs this
 * class as root (cgroups) and as an ordinary user (RLIMIT_AS, no CPU cap), as it does the whole
 * package.
 */
@Requires(GVISOR)
class LocalDataSandboxTest {

  @TempDir Path state;

  private static final String AHEAD = "import sys\nprint('numpy' in sys.modules)\nimport numpy\n";

  @BeforeAll
  static void numpyInstalled() {
    assumeTrue(
        Files.isDirectory(Path.of("/usr/lib/python3/dist-packages/numpy")),
        "Debian's python3-numpy (.ci/run installs it)");
  }

  /** A runner with a pool of one whose data sandbox for numpy waits. */
  private LocalSandboxRunner withNumpyWaiting() {
    LocalSandboxRunner runner = LocalRunners.warmRunner(state, 1);
    RunResult first = await(LocalRunners.python(runner, AHEAD));
    assertEquals("False\n", first.stdout().text(), describe(first));
    awaitDataSandbox(runner);
    return runner;
  }

  private static void awaitDataSandbox(LocalSandboxRunner runner) {
    LocalRunners.awaitCondition(() -> runner.dataWaiting() == 1, "a data sandbox to wait");
  }

  @Test
  void aDataSandboxImportedTheModulesAndKeepsNothingOfAnotherProgram() throws Exception {
    LocalSandboxRunner runner = withNumpyWaiting();
    try {
      String program =
          AHEAD
              + "import os\nprint(hasattr(numpy, 'x'), os.path.exists('/tmp/mark'))\n"
              + "numpy.x = 1\nopen('/tmp/mark', 'w').write('left')\n";
      RunResult warm = await(LocalRunners.python(runner, program));
      assertEquals("True\nFalse False\n", warm.stdout().text(), describe(warm));
      awaitDataSandbox(runner);
      RunResult next = await(LocalRunners.python(runner, program));
      assertEquals("True\nFalse False\n", next.stdout().text(), describe(next));
      RunResult plain =
          await(LocalRunners.python(runner, "import sys\nprint('numpy' in sys.modules)"));
      assertEquals("False\n", plain.stdout().text(), "no heavy import: a plain sandbox");
    } finally {
      runner.close();
    }
    LocalRunners.assertNothingLeft(runner);
  }

  @Test
  void theImportsCountAgainstTheMemoryLimit() throws Exception {
    LocalSandboxRunner runner = withNumpyWaiting();
    try {
      RunResult big =
          await(
              LocalRunners.python(
                  runner,
                  AHEAD
                      + "blocks = [numpy.ones(5_000_000) for _ in range(8)]\n" // 8 x 40 MB
                      + "print('all of it')\n"));
      assertEquals("True\n", big.stdout().text(), describe(big));
      assertTrue(big.exitCode() != 0, describe(big));
      assertTrue(
          describe(big).contains("256 MB") || big.stderr().text().contains("MemoryError"),
          describe(big));
    } finally {
      runner.close();
    }
  }

  @Test
  void theProgramsCpuCapHoldsFromTheHandOverAndNotBefore() throws Exception {
    LocalSandboxRunner runner = withNumpyWaiting();
    try {
      assumeTrue(runner.limits().hostCgroupsHold(), "host cgroups (root here)");
      // The plain sandboxes waiting beside it have their cap from the start; it has none yet.
      List<Path> waiting = new ArrayList<>();
      for (Path quota : ownCpuQuotas()) {
        if (Files.readString(quota).strip().equals("-1")) {
          waiting.add(quota);
        }
      }
      assertEquals(1, waiting.size(), "the data sandbox's cgroup alone has no cap: " + waiting);
      CompletableFuture<RunResult> run =
          LocalRunners.python(runner, AHEAD + "import time\ntime.sleep(3)\nprint('slept')\n");
      Await.until(
          () -> Files.readString(waiting.get(0)).strip().equals("50000"),
          Duration.ofSeconds(10),
          "half a CPU in the handed-over sandbox's cgroup");
      RunResult result = await(run);
      assertEquals("True\nslept\n", result.stdout().text(), describe(result));
    } finally {
      runner.close();
    }
  }

  /** This JVM's run cgroups in the cpu hierarchy (cgroup v1), their cfs quota files. */
  private static List<Path> ownCpuQuotas() throws IOException {
    Path parent = cpuParent();
    assertFalse(parent == null, "no cpu cgroup parent");
    String prefix = StateDirectory.PREFIX + ProcessHandle.current().pid() + "-";
    return LocalRunners.entries(parent).stream()
        .filter(name -> name.startsWith(prefix))
        .map(name -> parent.resolve(name).resolve("cpu.cfs_quota_us"))
        .toList();
  }

  private static Path cpuParent() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
      String[] parts = line.split(":", 3);
      if (parts.length == 3 && List.of(parts[1].split(",")).contains("cpu")) {
        for (String mount : List.of("/sys/fs/cgroup/cpu,cpuacct", "/sys/fs/cgroup/cpu")) {
          Path dir = Path.of(mount, parts[2].substring(1), HostCgroups.PARENT);
          if (Files.isDirectory(dir)) {
            return dir;
          }
        }
      }
    }
    return null;
  }
}
