package dev.cinchmcp.launch;

import dev.cinchmcp.backend.DaemonThreads;
import java.util.concurrent.CompletableFuture;

/**
 * Readies the JDK's process-start code on another core while the plain start looks for its archive:
 * a JVM's first {@code ProcessBuilder.start()} costs 20-30 ms (Java 17 and 25) of one-time set-up
 * (Process's classes, the reaper's pool, the first lambdas). Starts nothing, changes nothing.
 */
final class ProcessStartWarmUp implements Runnable {

  private ProcessStartWarmUp() {}

  static void begin() {
    // A class, not a lambda, to start it: a lambda here would bootstrap on the caller's thread.
    DaemonThreads.start("cinch-process-warm-up", new ProcessStartWarmUp());
  }

  @Override
  public void run() {
    try {
      Class.forName("java.lang.ProcessImpl", true, null);
      Class.forName("java.lang.ProcessHandleImpl", true, null);
      CompletableFuture<String> exit = new CompletableFuture<>();
      exit.handle((value, error) -> value);
      exit.complete("");
    } catch (ClassNotFoundException | RuntimeException | LinkageError e) {
      // Another JDK's inside: the start only pays the cost on its own thread.
    }
  }
}
