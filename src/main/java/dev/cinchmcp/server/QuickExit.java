package dev.cinchmcp.server;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Ends the process now, once a stop has done its work.
 *
 * <p>A JVM that exits waits up to 300 ms for threads blocked in native calls (HotSpot's {@code
 * VM_Exit}), longer than a client waits between its signals. Stdin is read through a channel that
 * the stop closes, so with no child processes nothing is left blocked and {@code halt} is quick. A
 * server with child processes (the local backend's sandboxes, even killed ones not yet reaped) has
 * threads waiting in {@code waitpid} and in reads of their pipes; it ends itself with SIGKILL
 * instead, which the kernel carries out at once.
 */
final class QuickExit {

  private QuickExit() {}

  static void now() {
    if (ProcessHandle.current().children().findAny().isPresent()) {
      try {
        String pid = Long.toString(ProcessHandle.current().pid());
        new ProcessBuilder("kill", "-KILL", pid).start().waitFor(1, TimeUnit.SECONDS);
      } catch (IOException | RuntimeException e) {
        // no kill command: halt, and wait as the JVM does
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    Runtime.getRuntime().halt(0);
  }
}
