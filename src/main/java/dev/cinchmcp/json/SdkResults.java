package dev.cinchmcp.json;

import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Implementation;
import io.modelcontextprotocol.spec.McpSchema.InitializeResult;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The results of {@code initialize}, {@code tools/list}, {@code tools/call} and a call's
 * notifications as plain maps, the JSON Jackson writes for the SDK's records (its record
 * serialisers cost a fresh JVM some 50 ms to build). Anything not written here is returned as is,
 * for Jackson.
 */
public final class SdkResults {

  private SdkResults() {}

  /** The result as plain maps, or the result itself. */
  public static Object plain(Object result) {
    if (result instanceof InitializeResult init) {
      return initialize(init);
    }
    if (result instanceof CallToolResult call) {
      return call(call);
    }
    if (result instanceof McpSchema.ListToolsResult list) {
      return tools(list);
    }
    return result;
  }

  /** A progress or log notification as plain maps, or the message itself. */
  public static Object plainMessage(McpSchema.JSONRPCMessage message) {
    if (!(message instanceof McpSchema.JSONRPCNotification n)) {
      return message;
    }
    Object params;
    if (n.params() instanceof McpSchema.ProgressNotification p) {
      params =
          fields(
              "progressToken", p.progressToken(),
              "progress", p.progress(),
              "total", p.total(),
              "message", p.message(),
              "_meta", p.meta());
    } else if (n.params() instanceof McpSchema.LoggingMessageNotification log) {
      String level = log.level() == null ? null : log.level().name().toLowerCase(Locale.ROOT);
      params =
          fields("level", level, "logger", log.logger(), "data", log.data(), "_meta", log.meta());
    } else {
      return message;
    }
    return fields("jsonrpc", n.jsonrpc(), "method", n.method(), "params", params);
  }

  private static Object tools(McpSchema.ListToolsResult list) {
    List<Object> tools = new ArrayList<>();
    for (McpSchema.Tool tool : list.tools()) {
      if (tool.icons() != null) {
        return list;
      }
      McpSchema.ToolAnnotations a = tool.annotations();
      Object annotations =
          a == null
              ? null
              : fields(
                  "title", a.title(),
                  "readOnlyHint", a.readOnlyHint(),
                  "destructiveHint", a.destructiveHint(),
                  "idempotentHint", a.idempotentHint(),
                  "openWorldHint", a.openWorldHint(),
                  "returnDirect", a.returnDirect());
      tools.add(
          fields(
              "name", tool.name(),
              "title", tool.title(),
              "description", tool.description(),
              "inputSchema", tool.inputSchema(),
              "outputSchema", tool.outputSchema(),
              "annotations", annotations,
              "_meta", tool.meta()));
    }
    return fields("tools", tools, "nextCursor", list.nextCursor(), "_meta", list.meta());
  }

  private static Object initialize(InitializeResult init) {
    ServerCapabilities c = init.capabilities();
    Implementation info = init.serverInfo();
    if (c == null
        || c.completions() != null
        || c.prompts() != null
        || c.resources() != null
        || c.extensions() != null
        || info == null
        || info.description() != null
        || info.icons() != null
        || info.websiteUrl() != null) {
      return init;
    }
    Map<String, Object> capabilities =
        fields(
            "experimental", c.experimental(),
            "logging", c.logging() == null ? null : Map.of(),
            "tools", c.tools() == null ? null : fields("listChanged", c.tools().listChanged()));
    return fields(
        "protocolVersion", init.protocolVersion(),
        "capabilities", capabilities,
        "serverInfo", fields("name", info.name(), "title", info.title(), "version", info.version()),
        "instructions", init.instructions(),
        "_meta", init.meta());
  }

  private static Object call(CallToolResult call) {
    List<Object> content = new ArrayList<>();
    if (call.content() != null) {
      for (McpSchema.Content item : call.content()) {
        if (!(item instanceof TextContent text) || text.annotations() != null) {
          return call;
        }
        content.add(fields("type", "text", "text", text.text(), "_meta", text.meta()));
      }
    }
    return fields(
        "content", call.content() == null ? null : content,
        "isError", call.isError(),
        "structuredContent", call.structuredContent(),
        "_meta", call.meta());
  }

  /** An object of these keys and values, in order, nulls left out (as the records are written). */
  private static Map<String, Object> fields(Object... keysAndValues) {
    Map<String, Object> json = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      if (keysAndValues[i + 1] != null) {
        json.put((String) keysAndValues[i], keysAndValues[i + 1]);
      }
    }
    return json;
  }
}
