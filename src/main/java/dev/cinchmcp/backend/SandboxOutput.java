package dev.cinchmcp.backend;

import dev.cinchmcp.text.CappedText;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;

/** What a run in a sandbox of this machine (gVisor, a container) captured, read once it ended. */
public interface SandboxOutput {

  /** Stdout, with the launcher's frame (if any) taken out of it. */
  CapturedStream out();

  /** Stderr, to which only the sandbox's own notes are added. */
  CapturedStream err();

  default CappedText stdout() {
    return out().result(null);
  }

  /** Stderr, with a line of the sandbox's own after it (why it was stopped), or none when null. */
  default CappedText stderr(String note) {
    return err().result(note);
  }

  /** What the launcher's frame brought; {@link WrittenFiles#NOT_ASKED} without one. */
  default WrittenFiles files() {
    return out().files();
  }

  /** How long the output may take to end after the sandbox has exited. */
  long DRAIN_GRACE_MILLIS = 2_000;

  /**
   * Waits up to {@link #DRAIN_GRACE_MILLIS} for a reader of a sandbox's output to finish, and gives
   * it up (cancels it) after that: what it read so far is the output.
   *
   * @param log the run's logger, for a reader that failed
   * @param what the reader, for that log line, e.g. "Output reader"
   */
  static void awaitReader(Future<?> reader, Logger log, String what) {
    try {
      reader.get(DRAIN_GRACE_MILLIS, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      reader.cancel(true);
    } catch (ExecutionException e) {
      log.debug("{} failed: {}", what, e.getCause().toString());
    } catch (InterruptedException e) {
      reader.cancel(true);
      Thread.currentThread().interrupt();
    }
  }
}
