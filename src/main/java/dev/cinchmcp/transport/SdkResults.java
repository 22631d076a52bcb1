package dev.cinchmcp.transport;

import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Implementation;
import io.modelcontextprotocol.spec.McpSchema.InitializeResult;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The results of {@code initialize} and {@code tools/call} as plain maps, the JSON Jackson would
 * write for the SDK's records. Jackson serialises a record by reflection on its annotations, and in
 * a fresh JVM building those serialisers costs some 50 ms, which {@code initialize} and the first
 * call would wait for; maps, lists and strings it writes at once. A result with anything this class
 * does not write (another content type, annotations, icons) is returned as it is, for Jackson.
 */
final class SdkResults {

  private SdkResults() {}

  /** The result as plain maps, or the result itself. */
  static Object plain(Object result) {
    if (result instanceof InitializeResult init) {
      return initialize(init);
    }
    if (result instanceof CallToolResult call) {
      return call(call);
    }
    return result;
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
