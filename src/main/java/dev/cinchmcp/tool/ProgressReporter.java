package dev.cinchmcp.tool;

import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Progress for a call with {@code _meta.progressToken}: when the run is sent, then every {@link
 * #INTERVAL_MS} ms, so clients that reset their timeouts on progress keep waiting; none after
 * {@link #stop()}.
 */
final class ProgressReporter {

  static final long INTERVAL_MS = 2_000;

  private static final ProgressReporter NONE = new ProgressReporter(null, null);

  private final CallChannel channel;
  private final Object token;
  private final long startNanos = System.nanoTime();
  private ScheduledFuture<?> ticker;
  private double progress;
  private boolean stopped;

  private ProgressReporter(CallChannel channel, Object token) {
    this.channel = channel;
    this.token = token;
  }

  static ProgressReporter start(
      CallChannel channel, Object token, ScheduledExecutorService timers) {
    if (token == null) {
      return NONE;
    }
    ProgressReporter reporter = new ProgressReporter(channel, token);
    synchronized (reporter) {
      reporter.ticker =
          timers.scheduleAtFixedRate(
              () ->
                  reporter.report("waiting for the sandbox (" + reporter.elapsedSeconds() + " s)"),
              INTERVAL_MS,
              INTERVAL_MS,
              TimeUnit.MILLISECONDS);
    }
    return reporter;
  }

  /** Under the lock while the transport writes it: so it comes before a reply after stop(). */
  synchronized void report(String message) {
    if (token == null || stopped) {
      return;
    }
    progress += 1;
    channel.progress(ProgressNotification.builder(token, progress).message(message).build());
  }

  synchronized void stop() {
    stopped = true;
    if (ticker != null) {
      ticker.cancel(false);
    }
  }

  private long elapsedSeconds() {
    return TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNanos);
  }
}
