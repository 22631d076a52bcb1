package dev.cinchmcp.transport;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cinchmcp.mcp2026.StatelessServer;
import java.util.concurrent.atomic.AtomicReference;
import reactor.core.Disposable;

/**
 * One request, from the line read until it is answered or cancelled. Its {@link State} moves one
 * way only (QUEUED, RUNNING, then ANSWERED; or CANCELLED from either of the first two), each move a
 * compare-and-set, so of a cancellation and an answer (or a start) at once exactly one wins. The
 * session's work for it carries it in its Reactor context, so the answer reaches its own request
 * and no other (not even a later one reusing the id).
 */
final class Request {

  enum State {
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

  /** {@code modern}: the work that answers a 2026-era request; null for a 2025-era one. */
  Request(RequestId id, JsonNode message, int bytes, StatelessServer.Call modern) {
    this.id = id;
    this.message = message;
    this.bytes = bytes;
    this.modern = modern;
  }

  StatelessServer.Call modern() {
    return modern;
  }

  /** The message as read, handed over once when the request starts. */
  JsonNode takeMessage() {
    JsonNode m = message;
    message = null;
    return m;
  }

  RequestId id() {
    return id;
  }

  /** The id as the client wrote it, for the answer. */
  Object echoId() {
    return id.echo();
  }

  /** The size of its line, counted against the waiting limit. */
  int bytes() {
    return bytes;
  }

  State state() {
    return state.get();
  }

  boolean ended() {
    State s = state.get();
    return s == State.ANSWERED || s == State.CANCELLED;
  }

  /** Its turn has come: true if it should run now, false if it was cancelled meanwhile. */
  boolean begin() {
    return state.compareAndSet(State.QUEUED, State.RUNNING);
  }

  /** The work that computes its answer; disposed at once if it was cancelled since begin(). */
  void attach(Disposable work) {
    this.work = work;
    if (state.get() == State.CANCELLED) {
      work.dispose();
    }
  }

  /** Claims the right to answer; false if it was cancelled (the answer must then be dropped). */
  boolean answer() {
    return state.compareAndSet(State.RUNNING, State.ANSWERED)
        || state.compareAndSet(State.QUEUED, State.ANSWERED);
  }

  /** Cancels it unless it was answered (a running one's work is disposed); true if this did. */
  boolean cancel() {
    while (true) {
      State s = state.get();
      if (s == State.ANSWERED || s == State.CANCELLED) {
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
