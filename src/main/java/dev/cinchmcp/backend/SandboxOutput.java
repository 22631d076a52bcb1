package dev.cinchmcp.backend;

import dev.cinchmcp.text.CappedText;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;

/** What a run in a sandbox of this machine (gVisor, a container) captured, read once it ended. */
public interface SandboxOutput {

  StreamCapture out();

  StreamCapture err();

  default CappedText stdout() {
    return out().result(null);
  }

  default CappedText stderr(String note) {
    return err().result(note);
  }

  default WrittenFiles files() {
    return out().files();
  }

  long DRAIN_GRACE_MILLIS = 2_000;

  /** Waits up to the grace for a reader, then cancels it: what it read so far is the output. */
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
