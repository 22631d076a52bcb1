package dev.cinchmcp.transport;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cinchmcp.mcp2026.StatelessServer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The one table of requests from the line read to the answer written: the live ids (one request per
 * id; a cancellation finds its request here), and which may run. At most {@code maxRunning} run at
 * once; later ones wait in arrival order, up to a count and a total size, so that a burst of
 * thousands of calls cannot exhaust memory or threads; beyond that one is refused at once. The
 * reader of stdin never blocks here, so a cancellation always gets through.
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

  /**
   * @param start runs a request whose turn has come (already moved to RUNNING); it must end in
   *     exactly one {@link #finished} call for that request, now or later
   */
  Requests(int maxRunning, int maxWaiting, long maxWaitingBytes, Consumer<Request> start) {
    this.maxRunning = maxRunning;
    this.maxWaiting = maxWaiting;
    this.maxWaitingBytes = maxWaitingBytes;
    this.start = start;
  }

  /**
   * A new request with this id; null when the id belongs to a request not yet ended (an answered
   * one's id is free at once). {@code modern}: the work that answers a 2026-era request, or null.
   */
  Request open(RequestId id, JsonNode message, int bytes, StatelessServer.Call modern) {
    Request request = new Request(id, message, bytes, modern);
    Request owner =
        live.compute(
            id, (k, existing) -> existing == null || existing.ended() ? request : existing);
    return owner == request ? request : null;
  }

  /**
   * Writes the request's answer unless it was cancelled (the spec says not to answer it then). Its
   * id is free for the client to reuse the moment the line is out; it stays counted until written,
   * so the drain waits for the write.
   */
  void answer(Request request, JsonRpcWriter writer, Object reply) {
    if (request.answer()) {
      writer.write(reply);
      forget(request);
    }
  }

  /** The live request with this id, for a cancellation; null if none. */
  Request find(RequestId id) {
    return live.get(id);
  }

  /** Starts the request now, or queues it; false (and forgotten) when it can do neither. */
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
   * Whether this request, queued, would make too many requests or bytes wait for a place. The first
   * queued ones that fit in the free places are not counted: they only wait for the starting thread
   * (counting them refused a burst of big calls that all had a place).
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

  /** A request has ended (answered, cancelled, failed): its id is free and its place too. */
  void forget(Request request) {
    if (live.remove(request.id(), request)) {
      synchronized (emptied) {
        emptied.notifyAll();
      }
    }
  }

  /** A started request's work is over: frees its place, so the next waiting one can start. */
  void finished(Request request) {
    forget(request);
    synchronized (this) {
      running--;
    }
    startWhatFits();
  }

  /**
   * Starts waiting requests while there is room, skipping cancelled ones, one thread at a time in a
   * loop: a request answered inside {@code start} only frees its place, so starts never nest.
   */
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

  /** Waits until no request is live; false if the deadline ({@link System#nanoTime}) passed. */
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

  /** Stops starting (a cancelled running request frees its place) and cancels every request. */
  List<Request> stopAll() {
    stopStarting();
    return cancelAll(null);
  }

  /** The server is stopping: nothing waiting starts from now on; the live requests go on. */
  void stopStarting() {
    stopped = true;
  }

  /**
   * Cancels the live requests that match ({@code null}, not a lambda, for all: a stop runs cold).
   */
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
}
