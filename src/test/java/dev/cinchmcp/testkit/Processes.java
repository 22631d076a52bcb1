package dev.cinchmcp.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/**
 * Whether processes still run. {@link ProcessHandle#isAlive} counts a zombie (ended, not yet
 * reaped) as alive; once the server that started it has gone, an orphan is reaped by whatever
 * adopts it (init, a subreaper, a container's pid 1), which may take its time. A zombie runs
 * nothing and holds nothing, so here it counts as ended.
 */
public final class Processes {

  private Processes() {}

  public static boolean running(ProcessHandle p) {
    if (!p.isAlive()) {
      return false;
    }
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(p.pid()), "stat"));
      return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
    } catch (IOException | RuntimeException gone) {
      return p.isAlive(); // no /proc (not Linux): what the JDK says
    }
  }

  /** Whether the process ignores this signal (its SigIgn mask, Linux); false when unknown. */
  public static boolean ignoresSignal(long pid, int signal) {
    return ProcStatus.field(pid, "SigIgn")
        .map(mask -> (Long.parseUnsignedLong(mask, 16) & (1L << (signal - 1))) != 0)
        .orElse(false);
  }

  /** Waits until none of them runs; false if some still run after {@code timeout}. */
  public static boolean awaitEnded(List<ProcessHandle> processes, Duration timeout)
      throws InterruptedException {
    return Await.holdsWithin(() -> processes.stream().noneMatch(Processes::running), timeout);
  }

  /**
   * The processes of a server's runs: those whose arguments name one of its run ids
   * (cinchmcp-PID-n: timeout, runsc, the Sentry, the gofer) and everything below them.
   */
  public static List<ProcessHandle> ofRuns(long serverPid) {
    String runId = "cinchmcp-" + serverPid + "-";
    List<ProcessHandle> named =
        ProcessHandle.allProcesses()
            .filter(
                p ->
                    p.info()
                        .arguments()
                        .map(args -> String.join(" ", args).contains(runId))
                        .orElse(false))
            .toList();
    return Stream.concat(named.stream(), named.stream().flatMap(ProcessHandle::descendants))
        .distinct()
        .toList();
  }

  /** How many sandboxes of a server's runs have booted (their Sentry, "runsc-sandbox ... boot"). */
  public static long sentries(long serverPid) {
    return ofRuns(serverPid).stream()
        .filter(p -> p.info().arguments().map(a -> List.of(a).contains("boot")).orElse(false))
        .count();
  }

  /** Those of them still running, with their command lines, for a failure's message. */
  public static List<String> alive(List<ProcessHandle> processes) {
    return processes.stream()
        .filter(Processes::running)
        .map(p -> p.pid() + " " + p.info().commandLine().orElse("?"))
        .toList();
  }
}
