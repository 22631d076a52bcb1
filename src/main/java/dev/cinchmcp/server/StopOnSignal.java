package dev.cinchmcp.server;

import dev.cinchmcp.backend.CodeRunner;
import dev.cinchmcp.backend.DaemonThreads;
import dev.cinchmcp.launch.QuickExit;
import dev.cinchmcp.transport.StdioTransport;
import java.io.InputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops at once on a signal: runs killed, calls cancelled, nothing more written, then the process
 * ends. A class, not a lambda: made before the first answer, where a first lambda costs time.
 */
final class StopOnSignal extends Thread {

  private static final Logger log = LoggerFactory.getLogger(StopOnSignal.class);

  private final InputStream in;
  // made now, so that its class is loaded before a stop needs it
  private final Backstop backstop = new Backstop();
  volatile StdioTransport transport;
  volatile CodeRunner runner;
  // Which came first, backend start or stop (each sets its flag, then reads the other): a backend
  // being built may have threads in native calls, so the exit cannot count as clean.
  volatile boolean stopping;
  private volatile boolean backendStarting;

  StopOnSignal(InputStream in) {
    super("cinch-stop-on-signal");
    this.in = in;
  }

  /** Called before the backend is built: false when a stop has begun (build nothing then). */
  boolean mayStartBackend() {
    backendStarting = true;
    return !stopping;
  }

  @Override
  public void run() {
    long start = System.nanoTime();
    stopping = true;
    DaemonThreads.start("cinch-stop-backstop", backstop);
    StdioTransport t = transport;
    if (t != null) {
      t.stopTaking(); // nothing read, started or written from here on
    }
    // the backend first: it ends all runs at once, before requests are cancelled one by one
    CodeRunner built = runner;
    boolean clean = built != null ? built.stopNow() : !backendStarting;
    if (t != null) {
      t.cancelAll();
    }
    log.debug("Stopped on a signal in {} ms", (System.nanoTime() - start) / 1_000_000);
    QuickExit.now(clean, in);
  }

  /** Ends the process should the stop hang (an engine that never answers its kill, say). */
  private static final class Backstop implements Runnable {

    static final long AFTER_MS = 1_000;

    @Override
    public void run() {
      try {
        Thread.sleep(AFTER_MS);
      } catch (InterruptedException e) {
        return;
      }
      log.warn("The stop took over {} ms; the process ends now", AFTER_MS);
      QuickExit.withChildrenRunning();
    }
  }
}
