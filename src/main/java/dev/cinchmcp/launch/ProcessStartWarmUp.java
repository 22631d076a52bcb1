package dev.cinchmcp.launch;

import dev.cinchmcp.backend.DaemonThreads;
import java.util.concurrent.CompletableFuture;

/**
 * Readies the JDK's process-start code on another core while the plain start's thread looks for its
 * archive. In a JVM just started, the first {@code ProcessBuilder.start()} costs some 20-30 ms
 * (measured on Java 17 and 25), nearly all of it one-time set-up: the classes behind {@code
 * Process}, the reaper's thread pool, and the bootstrap of the JVM's first lambdas. The checks
 * before it take about as long, so done side by side the start itself is left with a few
 * milliseconds. Nothing here starts a process or changes any state a start depends on.
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
