package dev.cinchmcp.backend;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A few sandboxes per language, started ahead of time so that a call finds one waiting: the call
 * then pays only for its program, not for the sandbox's start. Each entry is used once ({@link
 * #take}) and the backend destroys it after its run; none is ever reused.
 *
 * <p>When it refills, and why:
 *
 * <ul>
 *   <li>only while no call runs ({@link #callStarted()} / {@link #callEnded()}): starting a sandbox
 *       costs a core for a moment, and a burst is answered faster when the starts wait until it is
 *       over (measured with 8 calls at once: p50 335 ms against 393 ms for refilling at once);
 *   <li>one start at a time, on one thread of its own;
 *   <li>never after a long idle spell: {@code idleLimit} after the last call the pool is emptied,
 *       so an idle server costs nothing; the next call runs cold and refills it once it ends.
 * </ul>
 *
 * <p>An empty pool, or an entry that died or went stale, means the caller starts a cold sandbox at
 * once: the pool never makes a call wait. {@link #stopNow()} kills every waiting entry at once;
 * {@link #close()} also removes what they left.
 *
 * @param <S> the backend's started sandbox
 */
public final class WarmPool<S extends StartedSandbox> implements AutoCloseable {

  /**
   * Starts one sandbox for a language and returns at once (its processes made, not yet ready: the
   * pool then awaits {@link StartedSandbox#awaitReady()}).
   */
  @FunctionalInterface
  public interface Starter<S> {
    S start(Language language) throws Exception;
  }

  private static final Logger log = LoggerFactory.getLogger(WarmPool.class);

  /** How long {@link #close()} waits for a start under way to remove what it made. */
  private static final long CLOSE_WAIT_SECONDS = 5;

  private final Map<Language, Integer> sizes;
  private final Duration idleLimit;
  private final Starter<S> starter;
  private final ScheduledThreadPoolExecutor thread;

  /** Ready entries per language, oldest first (guarded by {@code this}). */
  private final Map<Language, Deque<S>> ready = new EnumMap<>(Language.class);

  /** The entry being started, if any (guarded by {@code this}): closing kills it too. */
  private S starting;

  /**
   * The language of the start under way, from before its processes are made until it is ready or
   * has failed (guarded by {@code this}; waited on by {@link #take(Language, Duration)}).
   */
  private Language startingLanguage;

  /**
   * Entries {@link #stopNow()} killed, for {@link #close()} to remove (guarded by {@code this}).
   */
  private final List<S> killed = new ArrayList<>();

  private int callsRunning;
  private boolean fillQueued;
  private boolean closed;
  private ScheduledFuture<?> emptyWhenIdle;

  /**
   * @param sizes how many entries each language keeps; a language left out (or 0) gets none
   * @param idleLimit how long after the last call the pool is emptied
   * @param threadName the name of the pool's own thread, for thread dumps
   */
  public WarmPool(
      Map<Language, Integer> sizes, Duration idleLimit, Starter<S> starter, String threadName) {
    this.sizes = Map.copyOf(sizes);
    this.idleLimit = idleLimit;
    this.starter = starter;
    this.thread = new ScheduledThreadPoolExecutor(1, DaemonThreads.named(threadName));
    thread.setRemoveOnCancelPolicy(true);
    for (Language language : Language.values()) {
      ready.put(language, new ArrayDeque<>());
    }
  }

  /**
   * Fills the pool in the background, unless a call is running (then it fills after it), and
   * empties it again {@code idleLimit} from now unless a call comes first.
   */
  public synchronized void fill() {
    if (closed || callsRunning > 0) {
      return;
    }
    try {
      if (emptyWhenIdle == null) {
        emptyWhenIdle = thread.schedule(this::empty, idleLimit.toMillis(), TimeUnit.MILLISECONDS);
      }
      if (!fillQueued) {
        fillQueued = true;
        thread.execute(this::fillNow);
      }
    } catch (RejectedExecutionException e) {
      // closing
    }
  }

  /**
   * The oldest usable entry for {@code language}, or empty: then the caller runs cold. Entries that
   * are no longer usable are discarded on the way. The oldest goes first because a young sandbox
   * can still be slower (gVisor's clock is calibrated ~1 s after its start; before that a Node
   * program's clock reads trap, measured ~100 ms against ~35 ms per run).
   */
  public Optional<S> take(Language language) {
    List<S> stale = new ArrayList<>();
    S found = null;
    synchronized (this) {
      Deque<S> queue = ready.get(language);
      while (found == null && !queue.isEmpty()) {
        S next = queue.pollFirst();
        if (next.usable()) {
          found = next;
        } else {
          stale.add(next);
        }
      }
    }
    stale.forEach(StartedSandbox::discard);
    return Optional.ofNullable(found);
  }

  /**
   * {@link #take(Language)}, but when none waits and one for {@code language} is being started,
   * that one once it is ready, waited for at most {@code awaitStarting}; else empty. For a backend
   * whose starts take longer than the gap between calls (a container engine): the start under way
   * has its slowest part behind it, so the call gets it sooner than a cold start would get a new
   * one. A call never waits for a start that has not begun, nor for one of another language.
   */
  public Optional<S> take(Language language, Duration awaitStarting) {
    long deadline = System.nanoTime() + awaitStarting.toNanos();
    while (true) {
      Optional<S> found = take(language);
      if (found.isPresent()) {
        return found;
      }
      synchronized (this) {
        long left = deadline - System.nanoTime();
        if (closed || startingLanguage != language || left <= 0) {
          return Optional.empty();
        }
        if (!ready.get(language).isEmpty()) {
          continue; // added meanwhile: take it
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(this, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return Optional.empty();
        }
      }
    }
  }

  /** A call began (warm or cold): no refill until every call has ended. */
  public synchronized void callStarted() {
    callsRunning++;
    if (emptyWhenIdle != null) {
      emptyWhenIdle.cancel(false);
      emptyWhenIdle = null;
    }
  }

  /** A call ended: with none left running, the pool refills, and empties after the idle limit. */
  public synchronized void callEnded() {
    callsRunning--;
    fill();
  }

  /** How many entries wait for {@code language} now. */
  public synchronized int waiting(Language language) {
    return ready.get(language).size();
  }

  /** Whether every language has all its entries waiting. */
  public synchronized boolean full() {
    return sizes.entrySet().stream().allMatch(e -> ready.get(e.getKey()).size() >= e.getValue());
  }

  /**
   * Kills every waiting entry (and one being started) at once and starts no more; their remains are
   * removed by {@link #close()}, or else by the backend's housekeeping at its next start.
   *
   * @return whether it killed any
   */
  public boolean stopNow() {
    List<S> all;
    synchronized (this) {
      all = closeAndDrain();
      killed.addAll(all);
    }
    thread.shutdownNow();
    for (S entry : all) { // a loop, not a lambda: a stop runs this cold (RunCgroup.killAll)
      entry.kill();
    }
    return !all.isEmpty();
  }

  /**
   * Closes the pool without interrupting a start under way, and waits at most {@code wait} for it:
   * the waiting entries are killed and discarded at once, and the start runs to its end and then
   * discards what it made (it sees the pool closed). For a backend whose start is a conversation
   * with another process (a container engine): cut off in the middle of a request, it could leave a
   * sandbox that nobody knows of.
   */
  public void closeLetStartFinish(Duration wait) {
    List<S> all;
    synchronized (this) {
      all = closeAndDrain(); // one made, not yet ready: discarding it ends its wait for that
    }
    thread.shutdown();
    all.forEach(StartedSandbox::discard);
    try {
      if (!thread.awaitTermination(wait.toMillis(), TimeUnit.MILLISECONDS)) {
        log.debug("A sandbox started ahead of time was still being started when the pool closed");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** {@link #stopNow()}, then removes what the killed entries left. */
  @Override
  public void close() {
    stopNow();
    List<S> remains;
    synchronized (this) {
      remains = new ArrayList<>(killed);
      killed.clear();
    }
    remains.forEach(StartedSandbox::discard);
    // A start caught before its entry was known sees the pool closed and removes it itself: wait
    // for that, so that nothing of the pool is written after close() returns.
    try {
      if (!thread.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
        log.warn("A sandbox started ahead of time was still being removed when the pool closed");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void empty() {
    List<S> all;
    synchronized (this) {
      emptyWhenIdle = null;
      if (callsRunning > 0) {
        return;
      }
      all = drain();
    }
    if (!all.isEmpty()) {
      log.debug("Emptied the pool of {} started sandboxes after {} idle", all.size(), idleLimit);
    }
    all.forEach(StartedSandbox::discard);
  }

  /** Closes the pool and returns every entry, waiting or being started, now out of it. */
  private synchronized List<S> closeAndDrain() {
    closed = true;
    notifyAll(); // no call waits for a start any more
    List<S> all = drain();
    if (starting != null) {
      all.add(starting);
      starting = null;
    }
    return all;
  }

  private List<S> drain() {
    List<S> all = new ArrayList<>();
    for (Deque<S> queue : ready.values()) {
      all.addAll(queue);
      queue.clear();
    }
    return all;
  }

  /** On the pool's thread: starts what is missing, one at a time, while no call runs. */
  private void fillNow() {
    synchronized (this) {
      fillQueued = false;
    }
    for (Language language : Language.values()) {
      while (true) {
        synchronized (this) {
          if (closed || callsRunning > 0 || missing(language) <= 0) {
            break;
          }
        }
        if (!startOne(language)) {
          return;
        }
      }
    }
  }

  /**
   * Starts one entry and adds it once ready; false when it failed (the caller runs cold, as without
   * a pool, and the next call's end tries again) or the pool was closed meanwhile.
   */
  private boolean startOne(Language language) {
    synchronized (this) {
      startingLanguage = language;
    }
    try {
      return startAndAdd(language);
    } finally {
      synchronized (this) {
        startingLanguage = null;
        notifyAll(); // a call waiting for it takes it now, or starts cold
      }
    }
  }

  private boolean startAndAdd(Language language) {
    S started;
    try {
      started = starter.start(language);
    } catch (Exception e) {
      log.debug("A {} sandbox could not be started ahead: {}", language.wireName(), e.toString());
      return false;
    }
    synchronized (this) {
      if (closed) {
        started.discard(); // closed while its processes were being made
        return false;
      }
      starting = started;
    }
    try {
      started.awaitReady();
    } catch (Exception e) {
      log.debug("A {} sandbox did not get ready: {}", language.wireName(), e.toString());
      started.discard();
      return false;
    } finally {
      synchronized (this) {
        if (starting == started) {
          starting = null;
        }
      }
    }
    synchronized (this) {
      if (!closed) {
        ready.get(language).addLast(started);
        return true;
      }
    }
    started.discard();
    return false;
  }

  private int missing(Language language) {
    return sizes.getOrDefault(language, 0) - ready.get(language).size();
  }
}
