package dev.cinchmcp.tool;

import io.modelcontextprotocol.spec.McpSchema.LoggingMessageNotification;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;

/**
 * What a running call may send the client before its result: progress, and log messages. Each
 * protocol era delivers them its own way (the SDK's session for the 2025 revisions, with the level
 * {@code logging/setLevel} set; the request's own {@code _meta} in 2026-07-28), so the tool only
 * says what to send. Both are best effort: a message that cannot be sent is dropped.
 */
public interface CallChannel {

  void progress(ProgressNotification notification);

  void log(LoggingMessageNotification notification);
}
