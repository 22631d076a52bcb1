package dev.cinchmcp.transport;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cinchmcp.mcp2026.StatelessServer;
import java.util.concurrent.atomic.AtomicReference;
import reactor.core.Disposable;

/**
 * One request read from the client, from the moment it is read until it is answered or cancelled.
 * Its {@link State} moves one way only:
 *
 * <pre>
 *   QUEUED --begin--> RUNNING --answer--> ANSWERED
 *      \                 \
 *       `----cancel-------`----cancel--> CANCELLED
 * </pre>
 *
 * Every move is a compare-and-set, so when two happen at once (a cancellation and the answer, a
 * cancellation and the start) exactly one wins and the other does nothing. The session's work for
 * it carries this object in its Reactor context, and the session sends the answer from inside that
 * work: that is how the reply reaches its own request and no other (not even a later one that
 * reuses the id). The id as the client wrote it ({@link #echoId}) is written with the answer.
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

  /**
   * @param modern the work that answers a 2026-era request, or null for a 2025-era one (which the
   *     SDK's session answers from {@code message})
   */
  Request(RequestId id, JsonNode message, int bytes, StatelessServer.Call modern) {
    this.id = id;
    this.message = message;
    this.bytes = bytes;
    this.modern = modern;
  }

  /** The work that answers it if it is a 2026-era request; null for a 2025-era one. */
  StatelessServer.Call modern() {
    return modern;
  }

  /** The message as read, handed over once when the request starts (and then let go). */
  JsonNode takeMessage() {
    JsonNode m = message;
    message = null;
    return m;
  }

  RequestId id() {
    return id;
  }

  /** The id to write in the answer: exactly what the client sent. */
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

  /**
   * The work that computes its answer, once started. If the request was cancelled in the instant
   * between {@link #begin} and this, the work is disposed here.
   */
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

  /**
   * Cancels it unless it was answered: a queued request will not run, a running one's work is
   * disposed (dropping its HTTP request). Returns whether this call cancelled it.
   */
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
