package dev.cinchmcp.backend;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Threads that never keep the process alive on their own, named so a thread dump says whose they
 * are.
 */
public final class DaemonThreads {

  private DaemonThreads() {}

  /**
   * Starts {@code task} on a daemon thread of this name. (Pass a class, not a lambda, where it runs
   * at start-up: a JVM's first lambdas cost milliseconds to bootstrap.)
   */
  public static Thread start(String name, Runnable task) {
    Thread thread = new Thread(task, name);
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  /** A factory of daemon threads named {@code prefix-1}, {@code prefix-2}, ... */
  public static ThreadFactory named(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
