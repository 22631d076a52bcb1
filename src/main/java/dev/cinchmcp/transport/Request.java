package dev.cinchmcp.transport;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cinchmcp.mcp2026.StatelessServer;
import java.util.concurrent.atomic.AtomicReference;
import reactor.core.Disposable;

/**
 * One request until answered or cancelled. Its state moves one way (QUEUED, RUNNING, ANSWERED; or
 * CANCELLED from the first two) by compare-and-set: of a cancellation and an answer exactly one
 * wins.
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
    State s = state.get();
    return s == State.ANSWERED || s == State.CANCELLED;
  }

  /** True if it should run now, false if it was cancelled meanwhile. */
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

  /** Claims the right to answer; false if it was cancelled. */
  boolean answer() {
    return state.compareAndSet(State.RUNNING, State.ANSWERED)
        || state.compareAndSet(State.QUEUED, State.ANSWERED);
  }

  /** Cancels it unless it was answered (its work disposed); true if this did. */
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
