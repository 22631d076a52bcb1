package dev.cinchmcp.backend.local;

import static dev.cinchmcp.backend.local.Sandboxes.await;
import static dev.cinchmcp.backend.local.Sandboxes.describe;
import static dev.cinchmcp.backend.local.Sandboxes.python;
import static dev.cinchmcp.testkit.Requires.Need.GVISOR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.testkit.Await;
import dev.cinchmcp.testkit.Requires;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every host process of a sandbox (runsc, its gofer, the Sentry) runs at nice 10, with or without
 * host cgroups: read from the kernel's /proc, not from the command the runner built. Runs as root
 * (cgroups) and in CI's non-root stage (none), where nice is the only thing that keeps a sandbox
 * behind the server.
 */
@Requires(GVISOR)
class LocalSandboxPriorityTest {

  @TempDir Path state;

  @Test
  void everyProcessOfASandboxRunsAtNice10() throws Exception {
    try (LocalSandboxRunner runner = Sandboxes.runner(state)) {
      CompletableFuture<RunResult> sleeping =
          python(runner, "import time\ntime.sleep(3)\nprint('done')");
      List<ProcessHandle> sandbox =
          Await.untilPresent(
              LocalSandboxPriorityTest::runningSandbox,
              Duration.ofSeconds(30),
              "a runsc run with its gofer and sandbox");
      Map<Long, Integer> niceByPid =
          sandbox.stream().collect(Collectors.toMap(ProcessHandle::pid, p -> nice(p.pid())));
      assertFalse(niceByPid.isEmpty());
      niceByPid.forEach(
          (pid, nice) ->
              assertEquals(10, nice, "nice of sandbox process " + pid + " in " + niceByPid));
      RunResult result = await(sleeping);
      assertEquals("done\n", result.stdout().text(), describe(result));
    }
  }

  /**
   * The {@code runsc run} process of this JVM's one running sandbox and its children, once all
   * three are there.
   */
  private static Optional<List<ProcessHandle>> runningSandbox() {
    for (ProcessHandle p : ProcessHandle.current().descendants().toList()) {
      List<String> args = List.of(p.info().arguments().orElse(new String[0]));
      if (p.info().command().orElse("").endsWith("runsc") && args.contains("--bundle")) {
        List<ProcessHandle> all = new ArrayList<>(List.of(p));
        all.addAll(p.descendants().toList());
        // runsc run, its gofer and its sandbox (which starts the program's own processes)
        return all.size() >= 3 ? Optional.of(all) : Optional.empty();
      }
    }
    return Optional.empty();
  }

  /** Field 19 of /proc/PID/stat; -100 when the process is gone. */
  private static int nice(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Integer.parseInt(fields[16]); // fields[0] is field 3, the state
    } catch (IOException e) {
      return -100;
    }
  }
}
