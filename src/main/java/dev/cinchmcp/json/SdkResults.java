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
 * The results of {@code initialize}, {@code tools/list} and {@code tools/call}, and the
 * notifications a call sends (progress, log messages), as plain maps, the JSON Jackson would write
 * for the SDK's records. Jackson serialises a record by reflection on its annotations, and in a
 * fresh JVM building those serialisers costs some 50 ms, which {@code initialize} and the first
 * call would wait for; maps, lists and strings it writes at once. A result with anything this class
 * does not write (another content type, annotations, icons) is returned as it is, for Jackson.
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

  /**
   * A notification as plain maps (progress and log messages, which a call may send many of), or the
   * message itself.
   */
  public static Object plainMessage(McpSchema.JSONRPCMessage message) {
    if (!(message instanceof McpSchema.JSONRPCNotification n)) {
      return message;
    }
    Object params;
    if (n.params() instanceof McpSchema.ProgressNotification p) {
      Map<String, Object> json = new LinkedHashMap<>();
      put(json, "progressToken", p.progressToken());
      put(json, "progress", p.progress());
      put(json, "total", p.total());
      put(json, "message", p.message());
      put(json, "_meta", p.meta());
      params = json;
    } else if (n.params() instanceof McpSchema.LoggingMessageNotification log) {
      Map<String, Object> json = new LinkedHashMap<>();
      put(json, "level", log.level() == null ? null : log.level().name().toLowerCase(Locale.ROOT));
      put(json, "logger", log.logger());
      put(json, "data", log.data());
      put(json, "_meta", log.meta());
      params = json;
    } else {
      return message;
    }
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("jsonrpc", n.jsonrpc());
    json.put("method", n.method());
    json.put("params", params);
    return json;
  }

  private static Object tools(McpSchema.ListToolsResult list) {
    List<Object> tools = new ArrayList<>();
    for (McpSchema.Tool tool : list.tools()) {
      if (tool.icons() != null) {
        return list;
      }
      Map<String, Object> json = new LinkedHashMap<>();
      put(json, "name", tool.name());
      put(json, "title", tool.title());
      put(json, "description", tool.description());
      put(json, "inputSchema", tool.inputSchema());
      put(json, "outputSchema", tool.outputSchema());
      McpSchema.ToolAnnotations a = tool.annotations();
      if (a != null) {
        Map<String, Object> annotations = new LinkedHashMap<>();
        put(annotations, "title", a.title());
        put(annotations, "readOnlyHint", a.readOnlyHint());
        put(annotations, "destructiveHint", a.destructiveHint());
        put(annotations, "idempotentHint", a.idempotentHint());
        put(annotations, "openWorldHint", a.openWorldHint());
        put(annotations, "returnDirect", a.returnDirect());
        json.put("annotations", annotations);
      }
      put(json, "_meta", tool.meta());
      tools.add(json);
    }
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("tools", tools);
    put(json, "nextCursor", list.nextCursor());
    put(json, "_meta", list.meta());
    return json;
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
    Map<String, Object> capabilities = new LinkedHashMap<>();
    put(capabilities, "experimental", c.experimental());
    if (c.logging() != null) {
      capabilities.put("logging", Map.of());
    }
    if (c.tools() != null) {
      Map<String, Object> tools = new LinkedHashMap<>();
      put(tools, "listChanged", c.tools().listChanged());
      capabilities.put("tools", tools);
    }
    Map<String, Object> serverInfo = new LinkedHashMap<>();
    put(serverInfo, "name", info.name());
    put(serverInfo, "title", info.title());
    put(serverInfo, "version", info.version());
    Map<String, Object> json = new LinkedHashMap<>();
    put(json, "protocolVersion", init.protocolVersion());
    json.put("capabilities", capabilities);
    json.put("serverInfo", serverInfo);
    put(json, "instructions", init.instructions());
    put(json, "_meta", init.meta());
    return json;
  }

  private static Object call(CallToolResult call) {
    List<Object> content = new ArrayList<>();
    if (call.content() != null) {
      for (McpSchema.Content item : call.content()) {
        if (!(item instanceof TextContent text) || text.annotations() != null) {
          return call;
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("type", "text");
        put(json, "text", text.text());
        put(json, "_meta", text.meta());
        content.add(json);
      }
    }
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("content", call.content() == null ? null : content);
    put(json, "isError", call.isError());
    put(json, "structuredContent", call.structuredContent());
    put(json, "_meta", call.meta());
    if (json.get("content") == null) {
      json.remove("content");
    }
    return json;
  }

  /** As the SDK's records are written: absent values are left out. */
  private static void put(Map<String, Object> json, String key, Object value) {
    if (value != null) {
      json.put(key, value);
    }
  }
}
