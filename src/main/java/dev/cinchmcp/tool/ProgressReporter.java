package dev.cinchmcp.tool;

import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Progress notifications for one call that asked for them (it carried {@code _meta.progressToken}):
 * one when the run is sent, then one every {@link #INTERVAL_MS} ms while it waits, so that clients
 * which reset their timeouts on progress keep waiting. None is sent after {@link #stop()}.
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

  /**
   * Sends one notification unless stopped. Holding the lock while the message is handed to the
   * transport (which writes it at once) orders it before any reply that follows {@link #stop()}.
   */
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
