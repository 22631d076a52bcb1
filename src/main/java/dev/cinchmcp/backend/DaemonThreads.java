package dev.cinchmcp.backend;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Threads that never keep the process alive on their own, named so a thread dump says whose they
 * are.
 */
public final class DaemonThreads {

  private DaemonThreads() {}

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
