package dev.cinchmcp.testkit;

import java.time.Duration;
import java.util.Optional;

/**
 * The tests' one way to wait: for a condition, polled until it holds or a deadline passes. Tests
 * outside the kit never call {@code Thread.sleep}; where a test really needs time to pass (to show
 * that something did NOT happen), it says so with {@link #timePasses}.
 */
public final class Await {

  /** How often a condition is looked at again. */
  private static final Duration POLL = Duration.ofMillis(20);

  private Await() {}

  /** A condition that may throw while it is looked at (a file read, a process listing...). */
  @FunctionalInterface
  public interface Check {
    boolean holds() throws Exception;
  }

  /** A value that may throw while it is read. */
  @FunctionalInterface
  public interface Probe<T> {
    T read() throws Exception;
  }

  /**
   * Waits until the condition holds.
   *
   * @throws AssertionError naming {@code what} when it does not hold within the timeout
   */
  public static void until(Check condition, Duration timeout, String what) {
    untilPresent(
        () -> condition.holds() ? Optional.of(Boolean.TRUE) : Optional.empty(),
        timeout,
        () -> what);
  }

  /** As {@link #until(Check, Duration, String)}, the failure's text made only when it fails. */
  public static void until(Check condition, Duration timeout, Probe<String> what) {
    untilPresent(
        () -> condition.holds() ? Optional.of(Boolean.TRUE) : Optional.empty(), timeout, what);
  }

  /** Waits until the condition holds; false (no failure) when it does not within the timeout. */
  public static boolean holdsWithin(Check condition, Duration timeout) {
    try {
      until(condition, timeout, "a condition");
      return true;
    } catch (AssertionError timedOut) {
      if (Thread.currentThread().isInterrupted()) {
        throw timedOut;
      }
      return false;
    }
  }

  /**
   * Waits until the probe gives a value, and returns it.
   *
   * @throws AssertionError naming {@code what} when it gives none within the timeout
   */
  public static <T> T untilPresent(Probe<Optional<T>> probe, Duration timeout, String what) {
    return untilPresent(probe, timeout, () -> what);
  }

  /**
   * As {@link #untilPresent(Probe, Duration, String)}, the failure's text made only when it fails.
   */
  public static <T> T untilPresent(Probe<Optional<T>> probe, Duration timeout, Probe<String> what) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Optional<T> value;
      try {
        value = probe.read();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted waiting for " + describe(what), e);
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Exception e) {
        throw new AssertionError("failed looking for " + describe(what), e);
      }
      if (value.isPresent()) {
        return value.get();
      }
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError(
            "gave up after " + timeout.toMillis() + " ms waiting for " + describe(what));
      }
      pause(POLL);
    }
  }

  /**
   * Lets this much time pass, on purpose: for a test that shows something did NOT happen (a
   * connection, a file, a second request), there is no event to wait for, only a time by which it
   * would have happened if it were going to. {@code why} says what that time is for; it is there
   * for the reader only.
   */
  public static void timePasses(Duration howLong, String why) throws InterruptedException {
    Thread.sleep(howLong.toMillis());
  }

  /**
   * For a fake server that models a slow peer (one that drips a byte, or never answers): this
   * thread stands still for this long. {@code why} says what the pause models.
   */
  public static void stall(Duration howLong, String why) throws InterruptedException {
    Thread.sleep(howLong.toMillis());
  }

  private static String describe(Probe<String> what) {
    try {
      return what.read();
    } catch (Exception e) {
      return "(a condition that could not be described: " + e + ")";
    }
  }

  private static void pause(Duration howLong) {
    try {
      Thread.sleep(howLong.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting", e);
    }
  }
}
