package dev.cinchmcp.backend;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Daemon threads, named so a thread dump says whose they are. */
public final class DaemonThreads {

  private DaemonThreads() {}

  /** At start-up pass a class, not a lambda: a JVM's first lambdas cost milliseconds. */
  public static Thread start(String name, Runnable task) {
    Thread thread = new Thread(task, name);
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  public static ThreadFactory named(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
