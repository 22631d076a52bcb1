package dev.cinchmcp.launch;

import dev.cinchmcp.backend.DaemonThreads;

/**
 * In the fast launch's child: once the launcher is killed outright, no client's signal reaches this
 * process, so it notices the launcher gone and stops as on SIGTERM within {@link #INTERVAL_MS} ms.
 */
public final class LauncherWatch {

  /** The launcher's pid, given to the child on its command line. */
  static final String LAUNCHER_PID = "cinch.faststart.launcher";

  static final long INTERVAL_MS = 250;

  /** The exit status once the launcher is gone: a shell's for a process ended by SIGTERM. */
  public static final int STOPPED = 143;

  private LauncherWatch() {}

  static void startIfChild() {
    long launcher = Long.getLong(LAUNCHER_PID, -1);
    if (launcher <= 1) {
      return;
    }
    DaemonThreads.start("cinch-launcher-watch", new Watch(launcher));
  }

  /** A class, not a lambda: this runs at every start, before the first lambda is worth its cost. */
  private record Watch(long launcher) implements Runnable {
    @Override
    public void run() {
      while (true) {
        try {
          Thread.sleep(INTERVAL_MS);
        } catch (InterruptedException e) {
          return;
        }
        // An orphan is re-parented at once (to init or a subreaper): the pid changes, and a new
        // process that happens to reuse the launcher's pid cannot be mistaken for it.
        long parent = ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
        if (parent != launcher) {
          // As a SIGTERM would: the server's shutdown hook stops everything at once.
          System.exit(STOPPED);
        }
      }
    }
  }
}
