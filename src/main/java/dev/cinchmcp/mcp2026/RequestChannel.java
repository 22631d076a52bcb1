package dev.cinchmcp.mcp2026;

import dev.cinchmcp.json.SdkResults;
import dev.cinchmcp.tool.CallChannel;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCNotification;
import io.modelcontextprotocol.spec.McpSchema.LoggingMessageNotification;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import java.util.function.Consumer;

/**
 * A 2026-era call's notifications: progress on the request's own token, and log messages only at or
 * above the level this request asked for (none when it asked for none). The JSON is the same as the
 * 2025 session writes.
 */
final class RequestChannel implements CallChannel {

  private final RequestContext context;
  private final Consumer<Object> out;

  RequestChannel(RequestContext context, Consumer<Object> out) {
    this.context = context;
    this.out = out;
  }

  @Override
  public void progress(ProgressNotification notification) {
    send(McpSchema.METHOD_NOTIFICATION_PROGRESS, notification);
  }

  @Override
  public void log(LoggingMessageNotification notification) {
    if (context.wantsLog(notification.level())) {
      send(McpSchema.METHOD_NOTIFICATION_MESSAGE, notification);
    }
  }

  private void send(String method, Object params) {
    out.accept(
        SdkResults.plainMessage(
            new JSONRPCNotification(McpSchema.JSONRPC_VERSION, method, params)));
  }
}
