package dev.cinchmcp.backend.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which modules a data program asks for, and which a data sandbox then imports, against a planted
 * Python directory; no sandbox is started (its starter refuses), so that only the choice is seen.
 */
class DataSandboxesTest {

  @TempDir Path site;

  private final AtomicLong now = new AtomicLong();

  private DataSandboxes sandboxes() throws IOException {
    Files.createDirectories(site.resolve("numpy"));
    Files.createDirectories(site.resolve("pandas"));
    Files.createDirectories(site.resolve("matplotlib"));
    Files.writeString(site.resolve("matplotlib/pyplot.py"), "");
    Files.createDirectories(site.resolve("scipy/stats"));
    Files.writeString(site.resolve("scipy/_lib.cpython-311-x86_64-linux-gnu.so"), "");
    return new DataSandboxes(
        1,
        Duration.ofMinutes(10),
        Set.of(),
        List.of(site.resolve("missing").toString(), site.toString()),
        (language, modules) -> {
          throw new IOException("no sandbox in this test");
        },
        now::get);
  }

  private static Program python(String code) {
    return new Program(code, Language.PYTHON);
  }

  @Test
  void aProgramAsksForTheInstalledModulesItImportsWithTheirParentsAndWhatTheyImport()
      throws IOException {
    try (DataSandboxes data = sandboxes()) {
      assertEquals(
          List.of("matplotlib", "matplotlib.pyplot", "numpy", "pandas"),
          data.modulesOf(python("import pandas as pd\nimport matplotlib.pyplot as plt\n")));
      assertEquals(
          List.of("numpy", "scipy", "scipy._lib", "scipy.stats"),
          data.modulesOf(python("from scipy import stats, _lib, optimize, norm\n")),
          "a module only when installed: a file, a folder or a native library");
      assertEquals(List.of(), data.modulesOf(python("import sklearn\nimport os\n")));
      assertEquals(List.of(), data.modulesOf(new Program("import numpy", Language.JAVASCRIPT)));
    }
  }

  @Test
  void sandboxesAreKeptForTheModulesOfTheLatestTwoKindsOfDataCall() throws IOException {
    try (DataSandboxes data = sandboxes()) {
      assertEquals(List.of(), data.demand(), "none before a data call");
      data.callStarted(List.of());
      data.callEnded();
      assertEquals(List.of(), data.demand(), "a plain call shows no demand");
      List<String> table = List.of("numpy", "pandas");
      List<String> chart = List.of("matplotlib", "matplotlib.pyplot", "numpy");
      List<String> stats = List.of("numpy", "scipy");
      call(data, table);
      call(data, chart);
      call(data, table);
      assertEquals(List.of(chart, table), data.demand(), "a table and a chart, alternating");
      call(data, stats);
      assertEquals(List.of(table, stats), data.demand(), "the one used longest ago goes");
    }
  }

  private static void call(DataSandboxes data, List<String> modules) {
    data.callStarted(modules);
    data.callEnded();
  }

  @Test
  void aProgramTakesADataSandboxOnlyWhenItImportsAllItsModules() throws IOException {
    try (DataSandboxes data = sandboxes()) {
      call(data, List.of("numpy", "pandas"));
      // Nothing waits (the starter refuses), but the rule is asked first: no pool is touched.
      assertTrue(data.take(Language.PYTHON, List.of("numpy")).isEmpty());
      assertTrue(data.take(Language.PYTHON, List.of()).isEmpty());
      assertTrue(
          data.take(Language.PYTHON, List.of("numpy", "pandas", "scipy")).isEmpty(),
          "none waiting");
    }
  }

  @Test
  void afterTheIdleLimitWithNoDataCallTheDemandMustShowAgain() throws IOException {
    try (DataSandboxes data = sandboxes()) {
      call(data, List.of("numpy"));
      now.addAndGet(Duration.ofMinutes(11).toNanos());
      data.callStarted(List.of());
      data.callEnded();
      assertEquals(List.of(), data.demand());
    }
  }
}
