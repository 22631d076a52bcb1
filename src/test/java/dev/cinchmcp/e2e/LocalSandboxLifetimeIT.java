package dev.cinchmcp.e2e;

import static dev.cinchmcp.testkit.Requires.Need.GVISOR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.testkit.Await;
import dev.cinchmcp.testkit.JarProcess;
import dev.cinchmcp.testkit.Processes;
import dev.cinchmcp.testkit.Requires;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No sandbox outlives its limits, whatever happens to the server: after a SIGKILL of the JVM (a
 * client crash, the OOM killer) its sandbox is stopped at the wall clock by {@code timeout}, which
 * does not need the JVM; after a SIGTERM with runs in flight, none is left once the server exits.
 */
@Requires(GVISOR)
class LocalSandboxLifetimeIT {

  /** The server itself, not a launcher in front of it, so that the signal reaches the JVM. */
  private static final Map<String, String> LOCAL =
      Map.of("CINCH_BACKEND", "local", "CINCH_FAST_START", "0");

  private static final String SPIN = "print('spinning', flush=True)\nwhile True:\n    pass";

  @Test
  void aSigkilledServersSandboxStopsAtItsWallClock() throws Exception {
    try (JarProcess jar = JarProcess.start(LOCAL)) {
      selfTestDone(jar);
      jar.send(JarProcess.call(1, SPIN));
      long sent = System.nanoTime();
      List<ProcessHandle> sandbox = awaitSandbox(jar);
      jar.process().destroyForcibly(); // SIGKILL: no shutdown hook, no clean-up of the JVM's own
      jar.process().waitFor();
      assertTrue(sandbox.stream().anyMatch(Processes::running), "the test proves nothing");
      // 10 s wall clock + the 1 s backstop grace + 2 s for the kernel and a busy machine.
      Await.until(
          () -> sandbox.stream().noneMatch(Processes::running),
          Duration.ofNanos(sent + Duration.ofSeconds(13).toNanos() - System.nanoTime()),
          () -> "sandbox processes to end 13 s after the call; alive: " + Processes.alive(sandbox));
    }
  }

  @Test
  void aSigtermWithRunsInFlightLeavesNoSandbox() throws Exception {
    try (JarProcess jar = JarProcess.start(LOCAL)) {
      selfTestDone(jar);
      jar.send(JarProcess.call(1, SPIN));
      jar.send(JarProcess.call(2, SPIN));
      List<ProcessHandle> sandboxes = awaitSandbox(jar);
      jar.process().destroy(); // SIGTERM
      // It kills its sandboxes, then itself (SIGKILL: a JVM with child processes is slow to exit).
      assertEquals(137, jar.waitForExit(Duration.ofSeconds(30)));
      // Give the kernel a moment to end what was killed; nothing may still run.
      assertTrue(
          Processes.awaitEnded(sandboxes, Duration.ofSeconds(1)),
          "sandbox processes left after the server exited: " + Processes.alive(sandboxes));
      jar.assertNoReplyTo("1", "nothing is written for a call stopped by the signal");
      jar.assertNoReplyTo("2", "nothing is written for a call stopped by the signal");
    }
  }

  @Test
  void whatAStopLeavesTheNextStartRemoves() throws Exception {
    long stopped;
    try (JarProcess jar = JarProcess.start(LOCAL)) {
      selfTestDone(jar);
      jar.send(JarProcess.call(1, SPIN));
      awaitSandbox(jar);
      stopped = jar.process().pid();
      jar.process().destroy(); // SIGTERM
      assertEquals(137, jar.waitForExit(Duration.ofSeconds(30)));
    }
    // The stop only killed: its run's cgroups and bundle are for the next start to remove.
    List<Path> left = remainsOf(stopped);
    assertFalse(
        left.isEmpty(), "no remains of the stopped server's run were found: nothing to test");
    try (JarProcess next = JarProcess.start(LOCAL)) {
      selfTestDone(next);
      assertEquals(List.of(), remainsOf(stopped).stream().filter(Files::exists).toList());
    }
  }

  /**
   * The run cgroups (cgroup v1, as root) and bundles (in the default state directory of a server
   * started without XDG_RUNTIME_DIR, as {@link JarProcess} starts it) of the server with this pid.
   */
  private static List<Path> remainsOf(long pid) throws IOException {
    String prefix = "cinchmcp-" + pid + "-";
    List<Path> parents = new ArrayList<>();
    for (String controller : List.of("cpu", "memory", "pids")) {
      parents.add(Path.of("/sys/fs/cgroup", controller, "cinchmcp"));
    }
    String uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid").toString();
    parents.add(Path.of("/tmp", "cinchmcp-local-" + uid, "bundles"));
    List<Path> remains = new ArrayList<>();
    for (Path parent : parents) {
      if (Files.isDirectory(parent)) {
        try (Stream<Path> entries = Files.list(parent)) {
          entries.filter(p -> p.getFileName().toString().startsWith(prefix)).forEach(remains::add);
        }
      }
    }
    return remains;
  }

  /**
   * Initializes the server and waits for one quick call, which waits for the gVisor self-test:
   * after it no self-test sandbox runs, so the sandboxes found next are the calls' own (with a
   * faster start, the self-test's could be taken for them, and be gone before the kill).
   */
  private static void selfTestDone(JarProcess jar) throws Exception {
    jar.initialize();
    jar.send(JarProcess.call(0, "print(1)"));
    jar.awaitReply(0, Duration.ofSeconds(60));
  }

  /**
   * Waits until a sandbox of this server runs (its Sentry, "runsc-sandbox ... boot"); returns every
   * process of the server's runs: those whose arguments name one of its run ids (cinchmcp-PID-n:
   * timeout, runsc, the Sentry, the gofer) and everything below them.
   */
  private static List<ProcessHandle> awaitSandbox(JarProcess jar) throws InterruptedException {
    Await.until(
        () -> sandboxUp(Processes.ofRuns(jar.process().pid())),
        Duration.ofSeconds(20),
        () -> "a sandbox to start; stderr:\n" + jar.stderr());
    return Processes.ofRuns(jar.process().pid());
  }

  /** Its gofer runs, and its Sentry ("boot") has a child: the stub of the program's process. */
  private static boolean sandboxUp(List<ProcessHandle> runs) {
    return runs.stream().anyMatch(p -> hasArgument(p, "gofer"))
        && runs.stream()
            .anyMatch(p -> hasArgument(p, "boot") && p.children().findAny().isPresent());
  }

  private static boolean hasArgument(ProcessHandle p, String argument) {
    return p.info().arguments().map(args -> List.of(args).contains(argument)).orElse(false);
  }
}
