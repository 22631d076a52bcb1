package dev.cinchmcp.e2e;

import static dev.cinchmcp.testkit.Requires.Need.GVISOR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.testkit.Await;
import dev.cinchmcp.testkit.JarProcess;
import dev.cinchmcp.testkit.Processes;
import dev.cinchmcp.testkit.Requires;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The sandboxes a server starts ahead of time (CINCH_LOCAL_POOL) never outlive it: after a SIGKILL
 * of the JVM a waiting one ends within a second (its launcher reads end-of-file on the stdin the
 * JVM held), a running one at its wall clock counted from the hand-over (the supervisor's
 * backstop), and the next server's start-up removes what the killed one left (bundles, runsc state,
 * cgroups).
 */
@Requires(GVISOR)
class LocalSandboxPoolLifetimeIT {

  private static final Map<String, String> LOCAL =
      Map.of("CINCH_BACKEND", "local", "CINCH_FAST_START", "0", "CINCH_LOCAL_POOL", "1");

  private static final String SPIN = "print('spinning', flush=True)\nwhile True:\n    pass";

  /** Where the servers of this user keep their sandboxes' state (no XDG_RUNTIME_DIR here). */
  private static final Path STATE =
      Path.of(System.getProperty("java.io.tmpdir"), "cinchmcp-local-" + uid());

  @Test
  void aSigkilledServersWaitingSandboxesEndWithinASecond() throws Exception {
    try (JarProcess jar = JarProcess.start(LOCAL)) {
      selfTestDone(jar);
      Set<String> waiting = awaitWaitingSandboxes(jar, 2);
      List<ProcessHandle> processes = Processes.ofRuns(jar.process().pid());
      jar.process().destroyForcibly(); // SIGKILL: no shutdown hook, no clean-up of the JVM's own
      jar.process().waitFor();
      long killed = System.nanoTime();
      // One second, as promised, and one more for a busy machine.
      awaitGone(processes, killed + Duration.ofSeconds(2).toNanos(), "2 s after the SIGKILL");
      long millis = (System.nanoTime() - killed) / 1_000_000;
      assertTrue(millis < 2_000, waiting + " took " + millis + " ms");

      // Their remains (bundle, cgroup) are named for the dead server: the next start removes them.
      assertTrue(
          bundles().stream().anyMatch(waiting::contains), "the test proves nothing: " + bundles());
      try (JarProcess next = JarProcess.start(LOCAL)) {
        selfTestDone(next);
        for (String id : waiting) {
          assertTrue(!bundles().contains(id), id + " left behind: " + bundles());
        }
      }
    }
  }

  @Test
  void aSigkilledServersWarmRunStopsAtItsWallClockFromTheHandOver() throws Exception {
    try (JarProcess jar = JarProcess.start(LOCAL)) {
      selfTestDone(jar);
      Set<String> waiting = awaitWaitingSandboxes(jar, 2);
      jar.send(JarProcess.call(1, SPIN));
      long sent = System.nanoTime();
      // Handed over: the supervisor's backstop (its sleep) is armed just before the program goes.
      Await.until(
          () ->
              Processes.ofRuns(jar.process().pid()).stream()
                  .anyMatch(LocalSandboxPoolLifetimeIT::isSleep),
          Duration.ofSeconds(10),
          "the backstop armed at hand-over (a cold run has none)");
      assertEquals(
          waiting,
          runIds(jar.process().pid()),
          "the call must run in a waiting sandbox (a new id means it ran cold)");
      List<ProcessHandle> processes = Processes.ofRuns(jar.process().pid());
      jar.process().destroyForcibly();
      jar.process().waitFor();
      // 10 s from the hand-over + the 1 s backstop grace + 2 s for the kernel and a busy machine.
      awaitGone(processes, sent + Duration.ofSeconds(13).toNanos(), "13 s after the call");
      long afterCall = (System.nanoTime() - sent) / 1_000_000;
      assertTrue(afterCall >= 10_000, "stopped before its 10 s: " + afterCall + " ms");
    }
  }

  /** Initializes the server and waits for one quick call, which waits for the gVisor self-test. */
  private static void selfTestDone(JarProcess jar) throws Exception {
    jar.initialize();
    jar.send(JarProcess.call(0, "print(1)"));
    jar.awaitReply(0, Duration.ofSeconds(60));
  }

  /**
   * Waits until {@code count} sandboxes of this server wait (their Sentry runs, "runsc-sandbox ...
   * boot", and no call is running), then a little longer for their interpreters to come up.
   */
  private static Set<String> awaitWaitingSandboxes(JarProcess jar, int count)
      throws InterruptedException {
    Await.until(
        () -> Processes.sentries(jar.process().pid()) >= count,
        Duration.ofSeconds(30),
        () -> count + " waiting sandboxes; stderr:\n" + jar.stderr());
    Await.timePasses(
        Duration.ofMillis(1_500), "the interpreters start, and gVisor's clock is calibrated");
    return runIds(jar.process().pid());
  }

  private static void awaitGone(List<ProcessHandle> processes, long deadline, String when)
      throws InterruptedException {
    assertTrue(processes.stream().anyMatch(Processes::running), "the test proves nothing");
    Await.until(
        () -> processes.stream().noneMatch(Processes::running),
        Duration.ofNanos(deadline - System.nanoTime()),
        () -> "sandbox processes to end " + when + "; alive: " + Processes.alive(processes));
  }

  /** The run ids (cinchmcp-PID-n) that this server's processes name in their arguments. */
  private static Set<String> runIds(long serverPid) {
    String prefix = "cinchmcp-" + serverPid + "-";
    Set<String> ids = new TreeSet<>();
    for (ProcessHandle p : Processes.ofRuns(serverPid)) {
      for (String arg : p.info().arguments().orElse(new String[0])) {
        int at = arg.indexOf(prefix);
        if (at >= 0) {
          String id = arg.substring(at).split("[^a-z0-9-]")[0];
          ids.add(id);
        }
      }
    }
    return ids;
  }

  private static boolean isSleep(ProcessHandle p) {
    return p.info().command().map(command -> command.endsWith("/sleep")).orElse(false);
  }

  private static Set<String> bundles() throws IOException {
    Path dir = STATE.resolve("bundles");
    if (!Files.isDirectory(dir)) {
      return Set.of();
    }
    try (Stream<Path> list = Files.list(dir)) {
      return new TreeSet<>(list.map(p -> p.getFileName().toString()).toList());
    }
  }

  private static int uid() {
    try {
      return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
