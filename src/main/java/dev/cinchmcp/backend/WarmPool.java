package dev.cinchmcp.backend;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A few sandboxes per language started ahead, each used once. It refills one at a time on its own
 * thread, only while no call runs (8 calls at once: p50 335 ms against 393 ms refilling at once),
 * and empties {@code idleLimit} after the last call. An empty pool or a stale entry means a cold
 * start at once: the pool never makes a call wait.
 */
public final class WarmPool<S extends StartedSandbox> implements AutoCloseable {

  /** Starts one sandbox and returns once its processes are made; the pool awaits it ready. */
  @FunctionalInterface
  public interface Starter<S> {
    S start(Language language) throws Exception;
  }

  private static final Logger log = LoggerFactory.getLogger(WarmPool.class);

  private final Map<Language, Integer> sizes;
  private final Duration idleLimit;
  private final Starter<S> starter;
  private final ScheduledThreadPoolExecutor thread;

  // All guarded by this. ready: oldest first. starting: made, not ready (closing kills it too).
  // startingLanguage: from before a start's processes are made until it is ready or failed.
  private final Map<Language, Deque<S>> ready = new EnumMap<>(Language.class);
  private S starting;
  private Language startingLanguage;
  private final List<S> killed = new CopyOnWriteArrayList<>(); // by stopNow(), close() removes

  private final boolean holdsNone; // every size 0: a call's end starts no pass and no timer
  private int callsRunning;
  private boolean fillQueued;
  private boolean closed;
  private ScheduledFuture<?> emptyWhenIdle;

  /** {@code sizes}: entries per language (left out: none). */
  public WarmPool(
      Map<Language, Integer> sizes, Duration idleLimit, Starter<S> starter, String threadName) {
    this.sizes = Map.copyOf(sizes);
    this.holdsNone = this.sizes.values().stream().allMatch(n -> n <= 0);
    this.idleLimit = idleLimit;
    this.starter = starter;
    this.thread = new ScheduledThreadPoolExecutor(1, DaemonThreads.named(threadName));
    thread.setRemoveOnCancelPolicy(true);
    for (Language language : Language.values()) {
      ready.put(language, new ArrayDeque<>());
    }
  }

  /** Fills in the background unless a call runs, and empties {@code idleLimit} from now. */
  public synchronized void fill() {
    if (closed || callsRunning > 0 || holdsNone) {
      return;
    }
    if (emptyWhenIdle == null) {
      emptyWhenIdle = thread.schedule(this::empty, idleLimit.toMillis(), TimeUnit.MILLISECONDS);
    }
    if (!fillQueued) {
      fillQueued = true;
      thread.execute(this::fillNow);
    }
  }

  /**
   * The oldest usable entry: gVisor calibrates its clock ~1 s after start, until then a Node
   * program's clock reads trap (~100 ms against ~35 ms per run, measured).
   */
  public Optional<S> take(Language language) {
    return take(language, Duration.ZERO);
  }

  /** Or the one being started, awaited at most {@code awaitStarting}: for a slow engine. */
  public Optional<S> take(Language language, Duration awaitStarting) {
    long deadline = System.nanoTime() + awaitStarting.toNanos();
    List<S> stale = new ArrayList<>();
    try {
      synchronized (this) {
        while (true) {
          for (S next; (next = ready.get(language).pollFirst()) != null; ) {
            if (next.usable()) {
              return Optional.of(next);
            }
            stale.add(next);
          }
          long left = deadline - System.nanoTime();
          if (closed || startingLanguage != language || left <= 0) {
            return Optional.empty();
          }
          TimeUnit.NANOSECONDS.timedWait(this, left);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    } finally {
      stale.forEach(StartedSandbox::discard);
    }
  }

  public synchronized void callStarted() {
    callsRunning++;
    if (emptyWhenIdle != null) {
      emptyWhenIdle.cancel(false);
      emptyWhenIdle = null;
    }
  }

  public synchronized void callEnded() {
    callsRunning--;
    fill();
  }

  public synchronized int waiting(Language language) {
    return ready.get(language).size();
  }

  public synchronized boolean full() {
    return sizes.entrySet().stream().allMatch(e -> ready.get(e.getKey()).size() >= e.getValue());
  }

  /** Kills every entry at once, starts no more; {@link #close()} removes the remains. */
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
   * Closes without interrupting a start under way (awaited at most {@code wait}; it discards what
   * it made): an engine request cut off midway could leave a sandbox nobody knows of.
   */
  public void closeLetStartFinish(Duration wait) {
    List<S> all = closeAndDrain(); // one made, not yet ready: discarding it ends its wait for that
    thread.shutdown();
    all.forEach(StartedSandbox::discard);
    if (!awaitThread(wait)) {
      log.debug("A sandbox started ahead of time was still being started when the pool closed");
    }
  }

  @Override
  public void close() {
    stopNow();
    killed.forEach(StartedSandbox::discard);
    // A start caught before its entry was known removes it itself: await that.
    if (!awaitThread(Duration.ofSeconds(5))) {
      log.warn("A sandbox started ahead of time was still being removed when the pool closed");
    }
  }

  private boolean awaitThread(Duration wait) {
    try {
      return thread.awaitTermination(wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return true;
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

  private void fillNow() {
    for (Language language : Language.values()) {
      while (true) {
        synchronized (this) {
          fillQueued = false; // a fill() from now on queues another pass
          if (closed
              || callsRunning > 0
              || ready.get(language).size() >= sizes.getOrDefault(language, 0)) {
            break;
          }
          startingLanguage = language;
        }
        if (!startOne(language)) {
          return;
        }
      }
    }
  }

  /** False when the start failed (the next call's end tries again) or the pool closed. */
  private boolean startOne(Language language) {
    S started = null;
    try {
      started = starter.start(language);
      synchronized (this) {
        if (closed) {
          return false; // closed while its processes were being made
        }
        starting = started;
      }
      started.awaitReady();
      synchronized (this) {
        if (!closed) {
          ready.get(language).addLast(started);
          started = null;
        }
        return !closed;
      }
    } catch (Exception e) {
      log.debug("A {} sandbox could not be started ahead: {}", language.wireName(), e.toString());
      return false;
    } finally {
      synchronized (this) {
        startingLanguage = null;
        starting = null;
        notifyAll(); // a call waiting for it takes it now, or starts cold
      }
      if (started != null) {
        started.discard();
      }
    }
  }
}
