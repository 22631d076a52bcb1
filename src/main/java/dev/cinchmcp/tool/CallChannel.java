package dev.cinchmcp.tool;

import io.modelcontextprotocol.spec.McpSchema.LoggingMessageNotification;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;

/**
 * What a running call may send before its result, best effort; each protocol era delivers it its
 * own way (2025: the SDK's session; 2026-07-28: the request's {@code _meta}).
 */
public interface CallChannel {

  void progress(ProgressNotification notification);

  void log(LoggingMessageNotification notification);
}
