package dev.cinchmcp.server;

import dev.cinchmcp.backend.CodeRunner;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunListener;
import dev.cinchmcp.backend.RunResult;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

/**
 * A server's stop on a signal with a backend whose own stop never returns ({@code hang}) or returns
 * at once ({@code quick}), for {@link StopBackstopTest}: run in a JVM of its own, since the stop
 * ends the process. Prints "ready" once the stop is in place.
 */
public final class StopBackstopMain {

  private StopBackstopMain() {}

  public static void main(String[] args) throws InterruptedException {
    boolean hang = args.length == 1 && args[0].equals("hang");
    StopOnSignal stop = new StopOnSignal(System.in);
    stop.runner = new Backend(hang);
    Runtime.getRuntime().addShutdownHook(stop);
    System.out.println("ready");
    System.out.flush();
    new CountDownLatch(1).await(); // until the signal
  }

  /** Runs nothing; its stop blocks for good when {@code hang}. */
  private record Backend(boolean hang) implements CodeRunner {

    @Override
    public String name() {
      return "fixture";
    }

    @Override
    public CompletableFuture<RunResult> run(Program program, RunListener listener) {
      return new CompletableFuture<>();
    }

    @Override
    public boolean stopNow() {
      if (hang) {
        try {
          new CountDownLatch(1).await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return true;
    }
  }
}
