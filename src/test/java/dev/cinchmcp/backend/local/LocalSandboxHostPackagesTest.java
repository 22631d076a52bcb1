package dev.cinchmcp.backend.local;

import static dev.cinchmcp.testkit.LocalRunners.await;
import static dev.cinchmcp.testkit.LocalRunners.describe;
import static dev.cinchmcp.testkit.Requires.Need.GVISOR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.testkit.Dependency;
import dev.cinchmcp.testkit.LocalRunners;
import dev.cinchmcp.testkit.Requires;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Debian's python3-numpy, python3-pandas and python3-matplotlib, installed on the host, import and
 * work inside the sandbox (they need the pieces of /etc that {@link OciSpec#ETC_PIECES} shows).
 * Cold here; {@link LocalSandboxWarmHostPackagesTest} in sandboxes started ahead of time. The runs
 * go one after another: each takes seconds of gVisor's time. They are allowed 30 s, not the
 * service's 10: what is tested is that the packages work, and {@code import numpy, pandas} alone
 * took 3.6 s of half a CPU on one machine of this kind and 6.5 s on another (Debian's runsc traps
 * every system call and page fault), more while a build runs beside it.
 */
@Requires(GVISOR)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LocalSandboxHostPackagesTest {

  LocalSandboxRunner runner;

  static final Duration WALL_CLOCK = Duration.ofSeconds(30);

  LocalSandboxSettings settings(LocalSandboxSettings base) {
    return base.withPoolSize(0).withWallClock(WALL_CLOCK);
  }

  void ready(LocalSandboxRunner started) {
    LocalRunners.usable(started);
  }

  CompletableFuture<RunResult> python(String code) {
    return LocalRunners.python(runner, code);
  }

  CompletableFuture<RunResult> javascript(String code) {
    return LocalRunners.javascript(runner, code);
  }

  @BeforeAll
  void start(@TempDir Path state) {
    requirePackages();
    runner =
        LocalSandboxRunner.start(settings(LocalSandboxSettings.defaults().withStateDir(state)));
    ready(runner);
  }

  @AfterAll
  void stop() {
    if (runner != null) {
      runner.close();
    }
  }

  @Test
  void numpyAndPandasImportAndCompute() {
    RunResult result =
        await(
            python(
                """
        import numpy as np, pandas as pd
        print('mean', np.arange(10).reshape(2, 5).mean(axis=1).tolist())
        df = pd.DataFrame({'city': ['a', 'b', 'a'], 'n': [1, 2, 3]})
        print('sums', df.groupby('city')['n'].sum().to_dict())
        print('versions', np.__version__, pd.__version__)
        """));
    assertEquals(0, result.exitCode(), describe(result));
    assertTrue(
        result.stdout().text().startsWith("mean [2.0, 7.0]\nsums {'a': 4, 'b': 2}\n"),
        describe(result));
    assertEquals("", result.stderr().text(), describe(result));
  }

  @Test
  void linearAlgebraRunsThroughTheAlternativesBlas() {
    requireRoomForOpenBlas();
    RunResult result =
        await(
            python(
                """
        import numpy as np
        a = np.array([[2.0, 1.0], [1.0, 3.0]])
        print('inverse', np.allclose(np.linalg.inv(a) @ a, np.eye(2)))
        """));
    assertEquals("inverse True\n", result.stdout().text(), describe(result));
    assertEquals(0, result.exitCode(), describe(result));
  }

  @Test
  void matplotlibDrawsAPngInTmp() {
    requireRoomForOpenBlas(); // a figure's transforms invert matrices with LAPACK
    RunResult result =
        await(
            python(
                """
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots()
        ax.plot([1, 2, 3], [3, 1, 2])
        ax.set_title('sales')
        fig.savefig('/tmp/chart.png')
        with open('/tmp/chart.png', 'rb') as f:
            head = f.read(8)
        import os
        print(head == b'\\x89PNG\\r\\n\\x1a\\n', os.path.getsize('/tmp/chart.png') > 1000)
        print('matplotlib', matplotlib.__version__)
        """));
    assertEquals(0, result.exitCode(), describe(result));
    assertTrue(result.stdout().text().startsWith("True True\nmatplotlib "), describe(result));
    // No "Fontconfig error" and no warning about an unwritable cache: the fonts' configuration is
    // there, and HOME is the writable /tmp.
    assertEquals("", result.stderr().text(), describe(result));
  }

  @Test
  void matplotlibFindsTheFontListMadeOnTheHostWhenItIsImported() {
    LocalRunners.awaitCondition(() -> runner.fontList().isPresent(), "matplotlib's font list");
    RunResult result =
        await(
            python(
                """
        import glob, os
        cache = os.path.expanduser('~/.cache/matplotlib/fontlist-*.json')
        print('before', glob.glob(cache))
        import matplotlib
        print('after', [os.path.basename(p) for p in glob.glob(cache)])
        """));
    assertEquals(0, result.exitCode(), describe(result));
    // Nothing in the program's /tmp until it imports matplotlib; then the list the host made,
    // which spares matplotlib its scan of every font.
    assertEquals(
        "before []\nafter ['" + runner.fontList().get().getFileName() + "']\n",
        result.stdout().text(),
        describe(result));
    assertEquals("", result.stderr().text(), describe(result));
  }

  @Test
  void nodeFindsWhatNpmInstalledGloballyUnderUsr() {
    Assumptions.assumeTrue(
        Files.isRegularFile(Path.of("/usr/lib/node_modules/npm/package.json")),
        "no npm under /usr/lib/node_modules");
    RunResult result =
        await(javascript("console.log(require('npm/package.json').name, process.env.NODE_PATH)"));
    assertEquals(0, result.exitCode(), describe(result));
    assertEquals(
        "npm " + String.join(":", HostPackages.NODE_DIRS) + "\n",
        result.stdout().text(),
        describe(result));
  }

  /**
   * Without host cgroups Python runs under RLIMIT_AS (256 MB of address space), and Debian's
   * OpenBLAS reserves a 128 MB buffer at its first BLAS or LAPACK call: after numpy, pandas and
   * matplotlib are loaded (~200 MB of address space) it does not fit, and OpenBLAS then waits until
   * the time limit (measured). Known limit of that fallback; host cgroups have none.
   */
  void requireRoomForOpenBlas() {
    Assumptions.assumeTrue(
        runner.limits().hostCgroupsHold(),
        "without host cgroups (RLIMIT_AS) OpenBLAS's 128 MB buffer does not fit beside"
            + " numpy, pandas and matplotlib");
  }

  /** Skips where the packages are missing, unless gVisor tests must run (.ci/run installs them). */
  static void requirePackages() {
    boolean installed =
        Files.isDirectory(Path.of("/usr/lib/python3/dist-packages/matplotlib"))
            && Files.isDirectory(Path.of("/usr/lib/python3/dist-packages/pandas"));
    String how =
        "Debian's python3-matplotlib and python3-pandas are not installed"
            + " (apt-get install -y python3-matplotlib python3-pandas; .ci/run installs them)";
    Dependency.assumePresent(Requires.Need.GVISOR.required(), installed, how);
  }
}
