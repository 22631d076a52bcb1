package dev.cinchmcp.transport;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import reactor.core.Disposable;

/**
 * The requests read but not yet answered, by id. Each {@link Call} ends exactly once: answered
 * ({@link Call#finish()}) or cancelled ({@link Call#cancel()}), whichever comes first; the loser
 * does nothing. That is how a cancelled call is never answered, and a late cancellation changes
 * nothing.
 */
final class InFlight {

  private final ConcurrentHashMap<Object, Call> calls = new ConcurrentHashMap<>();
  private final Object emptied = new Object();

  /** One request in flight. */
  static final class Call {
    private final Object key;
    private final AtomicBoolean ended = new AtomicBoolean();
    private volatile Disposable subscription;

    Call(Object key) {
      this.key = key;
    }

    void attach(Disposable subscription) {
      this.subscription = subscription;
    }

    /** Answered or cancelled. */
    boolean ended() {
      return ended.get();
    }

    /** Whether its work was handed to the session (a waiting call's was not). */
    boolean started() {
      return subscription != null;
    }

    /** Claims the right to answer; false if the call was cancelled (or already answered). */
    boolean finish() {
      return ended.compareAndSet(false, true);
    }

    /**
     * Cancels the call unless it was already answered; disposing its work drops its HTTP request.
     */
    boolean cancel() {
      if (!ended.compareAndSet(false, true)) {
        return false;
      }
      Disposable d = subscription;
      if (d != null) {
        d.dispose();
      }
      return true;
    }
  }

  /**
   * A map key for a JSON-RPC id: the string, or the number's canonical value (1 and 1.0 are one
   * id).
   */
  static Object key(Object id) {
    if (id instanceof Number n) {
      try {
        return new BigDecimal(n.toString()).stripTrailingZeros();
      } catch (NumberFormatException e) {
        return n.toString();
      }
    }
    return id;
  }

  /**
   * Registers a request; null when its id belongs to a request still running. An id whose request
   * has ended (answered or cancelled) can be used again at once, even in the instant before that
   * request's clean-up: a client may reuse an id as soon as it has the answer.
   */
  Call open(Object key) {
    Call call = new Call(key);
    Call owner =
        calls.compute(
            key, (k, existing) -> existing == null || existing.ended.get() ? call : existing);
    return owner == call ? call : null;
  }

  Call get(Object key) {
    return calls.get(key);
  }

  void close(Call call) {
    if (calls.remove(call.key, call)) {
      synchronized (emptied) {
        emptied.notifyAll();
      }
    }
  }

  int size() {
    return calls.size();
  }

  /** Waits until no request is in flight; false if {@code limit} passed first. */
  boolean awaitEmpty(Duration limit) {
    long deadline = System.nanoTime() + limit.toNanos();
    synchronized (emptied) {
      while (!calls.isEmpty()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        try {
          emptied.wait(Math.max(1, left / 1_000_000), 0);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
    }
    return true;
  }
}
