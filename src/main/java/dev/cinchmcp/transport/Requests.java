package dev.cinchmcp.transport;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cinchmcp.mcp2026.StatelessServer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Predicate;
import reactor.core.Disposable;

/**
 * The table of requests (one live per id) and each one's life, from the line read to the answer
 * written. At most {@code maxRunning} run; later ones wait in order, up to a count and a total size
 * (a burst cannot exhaust memory), beyond that refused. The reader never blocks here.
 */
final class Requests {

  private final int maxRunning;
  private final int maxWaiting;
  private final long maxWaitingBytes;
  private final Consumer<Request> start;
  private final Map<RequestId, Request> live = new ConcurrentHashMap<>();
  private final ArrayDeque<Request> waiting = new ArrayDeque<>();
  private final Object emptied = new Object();
  private int running;
  private long waitingBytes;
  private boolean starting;
  private volatile boolean stopped;

  /** {@code start} runs a request now RUNNING, ending in exactly one {@link #finished} for it. */
  Requests(int maxRunning, int maxWaiting, long maxWaitingBytes, Consumer<Request> start) {
    this.maxRunning = maxRunning;
    this.maxWaiting = maxWaiting;
    this.maxWaitingBytes = maxWaitingBytes;
    this.start = start;
  }

  /** A new request with this id; null when the id belongs to one not yet ended. */
  Request open(RequestId id, JsonNode message, int bytes, StatelessServer.Call modern) {
    Request request = new Request(id, message, bytes, modern);
    Request owner =
        live.compute(
            id, (k, existing) -> existing == null || existing.ended() ? request : existing);
    return owner == request ? request : null;
  }

  /**
   * Writes the answer unless it was cancelled; its id stays live until written (the drain waits).
   */
  void answer(Request request, JsonRpcWriter writer, Object reply) {
    if (request.answer()) {
      writer.write(reply);
      forget(request);
    }
  }

  Request find(RequestId id) {
    return live.get(id);
  }

  /** Starts or queues the request; false (and forgotten) when it can do neither. */
  boolean admit(Request request) {
    synchronized (this) {
      if (overLimits(request)) {
        request.answer(); // the transport answers "busy" for it
        forget(request);
        return false;
      }
      waiting.add(request);
      waitingBytes += request.bytes();
    }
    startWhatFits();
    return true;
  }

  /**
   * Whether, queued, it would make too many requests or bytes wait. Those that fit the free places
   * are not counted (counting them refused a burst of big calls that all had a place).
   */
  private boolean overLimits(Request request) {
    int withoutPlace = waiting.size() + 1;
    long bytesWithoutPlace = waitingBytes + request.bytes();
    Iterator<Request> queued = waiting.iterator();
    for (int free = maxRunning - running; free > 0 && withoutPlace > 0; free--) {
      bytesWithoutPlace -= queued.hasNext() ? queued.next().bytes() : request.bytes();
      withoutPlace--;
    }
    return withoutPlace > maxWaiting || bytesWithoutPlace > maxWaitingBytes;
  }

  void forget(Request request) {
    if (live.remove(request.id(), request)) {
      synchronized (emptied) {
        emptied.notifyAll();
      }
    }
  }

  void finished(Request request) {
    forget(request);
    synchronized (this) {
      running--;
    }
    startWhatFits();
  }

  /** Starts waiting requests while there is room, one thread at a time: starts never nest. */
  private void startWhatFits() {
    synchronized (this) {
      if (starting || stopped) {
        return;
      }
      starting = true;
    }
    while (true) {
      Request next;
      synchronized (this) {
        next = null;
        while (running < maxRunning && !waiting.isEmpty()) {
          Request head = waiting.poll();
          waitingBytes -= head.bytes();
          if (head.begin()) {
            next = head;
            running++;
            break;
          }
          forget(head); // cancelled while it waited
        }
        if (next == null) {
          starting = false;
          return;
        }
      }
      start.accept(next);
    }
  }

  int size() {
    return live.size();
  }

  boolean awaitEmpty(long deadlineNanos) {
    synchronized (emptied) {
      while (!live.isEmpty()) {
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        try {
          emptied.wait(Math.max(1, left / 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
    }
    return true;
  }

  void stopStarting() {
    stopped = true;
  }

  /** Cancels the live requests that match ({@code null}, not a lambda, for all: a stop is cold). */
  List<Request> cancelAll(Predicate<Request> which) {
    List<Request> cancelled = new ArrayList<>();
    for (Request r : live.values()) {
      if (which != null && !which.test(r)) {
        continue;
      }
      if (r.cancel()) {
        cancelled.add(r);
      }
      forget(r);
    }
    return cancelled;
  }

  /**
   * One request until answered or cancelled. Its state moves one way (QUEUED, RUNNING, ANSWERED; or
   * CANCELLED from the first two) by compare-and-set: of a cancellation and an answer exactly one
   * wins.
   */
  static final class Request {

    enum State { // in order: ANSWERED and CANCELLED end it
      QUEUED,
      RUNNING,
      ANSWERED,
      CANCELLED
    }

    private final RequestId id;
    private final int bytes;
    private final StatelessServer.Call modern;
    private volatile JsonNode message;
    private final AtomicReference<State> state = new AtomicReference<>(State.QUEUED);
    private volatile Disposable work;

    /** {@code modern}: the work answering a 2026-era request; null for a 2025 one. */
    Request(RequestId id, JsonNode message, int bytes, StatelessServer.Call modern) {
      this.id = id;
      this.message = message;
      this.bytes = bytes;
      this.modern = modern;
    }

    StatelessServer.Call modern() {
      return modern;
    }

    JsonNode takeMessage() {
      JsonNode m = message;
      message = null;
      return m;
    }

    RequestId id() {
      return id;
    }

    Object echoId() {
      return id.echo();
    }

    int bytes() {
      return bytes;
    }

    State state() {
      return state.get();
    }

    boolean ended() {
      return state.get().compareTo(State.RUNNING) > 0;
    }

    boolean begin() {
      return state.compareAndSet(State.QUEUED, State.RUNNING);
    }

    /** Its work; disposed at once if it was cancelled since begin(). */
    void attach(Disposable work) {
      this.work = work;
      if (state.get() == State.CANCELLED) {
        work.dispose();
      }
    }

    boolean answer() {
      return state.compareAndSet(State.RUNNING, State.ANSWERED)
          || state.compareAndSet(State.QUEUED, State.ANSWERED);
    }

    /** Cancels it unless it was answered (its work disposed); true if this did. */
    boolean cancel() {
      while (true) {
        State s = state.get();
        if (s.compareTo(State.RUNNING) > 0) {
          return false;
        }
        if (state.compareAndSet(s, State.CANCELLED)) {
          message = null;
          Disposable w = work;
          if (w != null) {
            w.dispose();
          }
          return true;
        }
      }
    }

    @Override
    public String toString() {
      return "request " + id;
    }
  }
}
