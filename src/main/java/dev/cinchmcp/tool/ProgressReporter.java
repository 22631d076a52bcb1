package dev.cinchmcp.tool;

import dev.cinchmcp.backend.RunListener;
import io.modelcontextprotocol.spec.McpSchema.LoggingLevel;
import io.modelcontextprotocol.spec.McpSchema.LoggingMessageNotification;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A run's events for the client: its log, and progress for a call with {@code _meta.progressToken}
 * when the run is sent, then every {@link #INTERVAL_MS} ms, so clients that reset their timeouts on
 * progress keep waiting; none after {@link #stop()}.
 */
final class ProgressReporter implements RunListener {

  static final long INTERVAL_MS = 2_000;

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
    ProgressReporter reporter = new ProgressReporter(channel, token);
    if (token == null) {
      return reporter;
    }
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

  @Override
  public void sent(int attempt) {
    report(attempt == 1 ? "sent to the sandbox" : "sent again (attempt " + attempt + ")");
  }

  @Override
  public void log(Level level, String message) {
    LoggingLevel mcpLevel = LoggingLevel.valueOf(level.name()); // the same names
    channel.log(LoggingMessageNotification.builder(mcpLevel, message).logger("cinch-mcp").build());
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
