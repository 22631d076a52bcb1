package dev.cinchmcp.backend.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.RequiresGvisor;
import dev.cinchmcp.backend.Language;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server that crashed left a running sandbox, its bundle and its cgroup: the next start removes
 * them.
 */
@RequiresGvisor
class HousekeepingTest {

  @TempDir Path state;

  @Test
  void startUpRemovesWhatACrashedServerLeft() throws Exception {
    LocalSandboxSettings settings = LocalSandboxSettings.defaults().withStateDir(state);
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    String leftover = Housekeeping.PREFIX + gone.pid() + "-1";
    String ours = Housekeeping.PREFIX + ProcessHandle.current().pid() + "-999999";
    assertTrue(Housekeeping.isLeftover(leftover));
    assertFalse(Housekeeping.isLeftover(ours), "a live server's runs are never leftovers");
    assertFalse(Housekeeping.isLeftover("someone-else-1"), "only this backend's names");

    // A sandbox still running under the dead server's id, as a crash would leave it.
    Path bundle = Files.createDirectories(settings.bundles().resolve(leftover).resolve("rootfs"));
    Files.writeString(
        bundle.resolve("../config.json"),
        OciSpec.json(
            List.of(
                SandboxRuntimes.find().interpreter(Language.PYTHON).orElseThrow(),
                "-c",
                "import time; time.sleep(60)"),
            0,
            64));
    Files.createDirectories(settings.runscRoot());
    Runsc runsc =
        new Runsc(Path.of("/usr/bin/runsc"), settings.runscRoot(), settings.runscEnvironment());
    Process crashed =
        runsc
            .processBuilder(
                runsc.command("run", "--bundle", bundle.getParent().toString(), leftover))
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (!runsc.list().contains(leftover)) {
      assertTrue(System.nanoTime() < deadline, "the leftover sandbox did not start");
      Thread.sleep(50);
    }
    CgroupLimits cgroups = CgroupLimits.detect();
    RunCgroup cgroup = cgroups.create(leftover, 64L << 20, 100, 0.5);

    try (LocalSandboxRunner runner = LocalSandboxRunner.start(settings)) {
      assertTrue(runner.usable(), runner::unavailableReason);
      assertEquals(List.of(), runsc.list());
      assertFalse(Files.exists(bundle.getParent()), "bundle left");
      assertFalse(Files.exists(cgroup.memory()), "cgroup left");
      assertFalse(Files.exists(cgroup.pids()), "cgroup left");
      Sandboxes.assertNothingLeft(runner);
    } finally {
      crashed.destroyForcibly();
      cgroup.remove();
    }
  }
}
