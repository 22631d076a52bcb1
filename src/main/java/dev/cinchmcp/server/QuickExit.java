package dev.cinchmcp.server;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Ends the process now, once a stop has done its work.
 *
 * <p>A JVM that exits waits up to 300 ms for threads blocked in native calls (HotSpot's {@code
 * VM_Exit}), longer than a client waits between its signals. Stdin is read through a channel that
 * the stop closes, and the HTTP client's selector is interrupted, so a server that ran nothing
 * local has nothing left blocked and {@code halt} is quick. One with child processes (the local
 * backend's sandboxes, even killed ones not yet reaped; the fast launch's child JVM) has threads
 * waiting in {@code waitpid} and in reads of their pipes, and one whose containers were running has
 * their streams open; measured here, such a JVM took 60-380 ms to end. It ends itself with SIGKILL
 * instead, which the kernel carries out at once (its status then says so: killed by signal 9, 137
 * in a shell).
 */
public final class QuickExit {

  private QuickExit() {}

  /**
   * @param clean whether the backend left no thread waiting in a native call (see {@link
   *     dev.cinchmcp.backend.CodeRunner#stopNow})
   */
  static void now(boolean clean) {
    if (!clean || ProcessHandle.current().children().findAny().isPresent()) {
      killThisProcess();
    }
    Runtime.getRuntime().halt(0);
  }

  /**
   * Ends the process at once although it has child processes still running: by SIGKILL, or, should
   * that fail, by {@code halt} with this status.
   */
  public static void withChildrenRunning(int status) {
    killThisProcess();
    Runtime.getRuntime().halt(status);
  }

  private static void killThisProcess() {
    try {
      String pid = Long.toString(ProcessHandle.current().pid());
      new ProcessBuilder("kill", "-KILL", pid).start().waitFor(1, TimeUnit.SECONDS);
    } catch (IOException | RuntimeException e) {
      // no kill command: halt, and wait as the JVM does
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
