package dev.cinchmcp.testkit;

import java.util.concurrent.ThreadFactory;

/** Background threads of a test (a fake server's accept loop, a process's output reader). */
public final class Daemons {

  private Daemons() {}

  /** Starts a daemon thread: it never keeps the test JVM alive. */
  public static Thread start(String name, Runnable task) {
    Thread thread = new Thread(task, name);
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  /** A factory of daemon threads with this name, for a pool. */
  public static ThreadFactory factory(String name) {
    return task -> {
      Thread thread = new Thread(task, name);
      thread.setDaemon(true);
      return thread;
    };
  }
}
