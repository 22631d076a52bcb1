package dev.cinchmcp.backend.local;

import static dev.cinchmcp.testkit.Requires.Need.GVISOR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.Language;
import dev.cinchmcp.testkit.Await;
import dev.cinchmcp.testkit.Dependency;
import dev.cinchmcp.testkit.LocalRunners;
import dev.cinchmcp.testkit.Requires;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server that crashed left a running sandbox, its bundle and its cgroup: the next start removes
 * them.
 */
@Requires(GVISOR)
class HousekeepingTest {

  @TempDir Path state;

  @Test
  void startUpRemovesWhatACrashedServerLeftAndNothingOfALiveOne() throws Exception {
    LocalSandboxSettings settings = LocalSandboxSettings.defaults().withStateDir(state);
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    String leftover = StateDirectory.PREFIX + gone.pid() + "-1";
    String ours = StateDirectory.PREFIX + ProcessHandle.current().pid() + "-999999";
    assertTrue(StateDirectory.isLeftover(leftover));
    assertFalse(StateDirectory.isLeftover(ours), "a live server's runs are never leftovers");
    assertFalse(StateDirectory.isLeftover("someone-else-1"), "only this backend's names");

    StateDirectory.Prepared prepared = StateDirectory.prepare(state);
    // Another live server's run (a live process's pid) stays, whatever it looks like.
    Process live = new ProcessBuilder("sleep", "60").start();
    Path liveBundle =
        Files.createDirectories(
            prepared.bundles().resolve(StateDirectory.PREFIX + live.pid() + "-1"));

    // A sandbox still running under the dead server's id, as a crash would leave it.
    Path bundle = Files.createDirectories(prepared.bundles().resolve(leftover).resolve("rootfs"));
    Files.writeString(
        bundle.resolve("../config.json"),
        OciSpec.json(
            List.of(
                SandboxRuntimes.find().interpreter(Language.PYTHON).orElseThrow(),
                "-c",
                "import time; time.sleep(60)"),
            Language.PYTHON,
            0,
            64,
            state.resolve("no-etc"))); // none of /etc bound
    Runsc runsc = new Runsc(Dependency.runsc(), prepared.runsc(), settings.runscEnvironment());
    Process crashed =
        runsc
            .processBuilder(
                runsc.command("run", "--bundle", bundle.getParent().toString(), leftover))
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    Await.until(
        () -> runsc.list().contains(leftover),
        Duration.ofSeconds(10),
        "the leftover sandbox to start");
    RunCgroup cgroup =
        HostCgroups.detect().limits().isPresent()
            ? HostCgroups.detect().limits().get().create(leftover, 64L << 20, 100, 0.5)
            : null;

    try (LocalSandboxRunner runner = LocalRunners.runner(state)) {
      assertEquals(state, runner.stateDir());
      assertEquals(List.of(), runsc.list());
      assertFalse(Files.exists(bundle.getParent()), "bundle left");
      if (cgroup != null) {
        assertFalse(cgroup.procsFiles().stream().anyMatch(Files::exists), "cgroup left");
      }
      assertTrue(Files.isDirectory(liveBundle), "a live server's bundle was removed");
      Files.delete(liveBundle);
      LocalRunners.assertNothingLeft(runner);
    } finally {
      live.destroyForcibly();
      crashed.destroyForcibly();
      if (cgroup != null) {
        cgroup.remove();
      }
    }
  }
}
