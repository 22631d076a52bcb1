package dev.cinchmcp.transport;

import java.util.ArrayDeque;

/**
 * Bounds the work a client can start at once. At most {@link #maxRunning} requests run; later ones
 * wait their turn in arrival order, up to a count and a total size, so that a client sending
 * thousands of calls in a burst cannot exhaust the server's memory or threads. The reader of stdin
 * never blocks here, so a cancellation still gets through; a request beyond the waiting limits is
 * refused at once (the transport answers "busy").
 */
final class Admission {

  private record Waiting(InFlight.Call call, Runnable start, int bytes) {}

  private final int maxRunning;
  private final int maxWaiting;
  private final long maxWaitingBytes;
  private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();
  private int running;
  private long waitingBytes;
  private final ThreadLocal<Boolean> startingHere = ThreadLocal.withInitial(() -> false);

  Admission(int maxRunning, int maxWaiting, long maxWaitingBytes) {
    this.maxRunning = maxRunning;
    this.maxWaiting = maxWaiting;
    this.maxWaitingBytes = maxWaitingBytes;
  }

  int maxRunning() {
    return maxRunning;
  }

  /**
   * Starts the request now, or queues it; false when it can neither run nor wait.
   *
   * @param bytes the size of the request's line, counted against the waiting limit
   */
  boolean offer(InFlight.Call call, int bytes, Runnable start) {
    synchronized (this) {
      if (running >= maxRunning) {
        if (waiting.size() >= maxWaiting || waitingBytes + bytes > maxWaitingBytes) {
          return false;
        }
        waiting.add(new Waiting(call, start, bytes));
        waitingBytes += bytes;
        return true;
      }
      running++;
    }
    start.run();
    return true;
  }

  /**
   * A running request has ended: the longest-waiting ones that were not cancelled meanwhile start,
   * as many as there is room for. A request that ends while it is being started (one answered
   * without any I/O) only frees its place here; the loop of the outer call starts the next, so a
   * long queue of such requests never nests one start inside another (and never overflows the
   * stack).
   */
  void finished() {
    synchronized (this) {
      running--;
    }
    if (startingHere.get()) {
      return;
    }
    startingHere.set(true);
    try {
      while (true) {
        Waiting next;
        synchronized (this) {
          if (running >= maxRunning) {
            return;
          }
          do {
            next = waiting.poll();
            if (next != null) {
              waitingBytes -= next.bytes();
            }
          } while (next != null && next.call().ended());
          if (next == null) {
            return;
          }
          running++;
        }
        next.start().run();
      }
    } finally {
      startingHere.set(false);
    }
  }
}
