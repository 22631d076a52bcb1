package dev.cinchmcp.mcp2026;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cinchmcp.json.ParamsCheck;
import dev.cinchmcp.json.SdkJsonMapper;
import dev.cinchmcp.json.SdkResults;
import dev.cinchmcp.tool.CallChannel;
import dev.cinchmcp.tool.ExecuteCodeTool;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ListToolsResult;
import io.modelcontextprotocol.spec.McpSchema.LoggingMessageNotification;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import reactor.core.publisher.Mono;

/**
 * Answers 2026-07-28 requests ({@code server/discover}, {@code tools/list}, {@code tools/call}),
 * each judged on its own {@code _meta}. The tool is the one the 2025 session serves: a call gets
 * the same result in both eras; only the envelope differs (resultType, cache hints, identity).
 */
public final class StatelessServer {

  static final String TOOLS_LIST = "tools/list";
  static final String TOOLS_CALL = "tools/call";

  private static final TypeRef<Map<String, Object>> MAP = new TypeRef<>() {};

  /** The methods 2026-07-28 removed, answered -32601 with a pointer to what replaced them. */
  private static final Map<String, String> REMOVED =
      Map.of(
          "initialize",
          "there is no handshake in 2026-07-28: send server/discover, or initialize without the"
              + " 2026 _meta to open a 2025 session",
          "ping",
          "2026-07-28 has no ping",
          "logging/setLevel",
          "set params._meta[\"" + RequestContext.LOG_LEVEL + "\"] on each request instead");

  private final ExecuteCodeTool tool;
  private final McpJsonMapper mapper;

  /** {@code mapper}: for params and results not converted by hand (SdkJsonMapper, SdkResults). */
  public StatelessServer(ExecuteCodeTool tool, McpJsonMapper mapper) {
    this.tool = tool;
    this.mapper = mapper;
  }

  /**
   * Whether a request or notification is 2026-era (2026-07-28's compatibility rules, per message):
   * a {@code server/discover}, or one whose {@code params._meta} names the version; all else 2025.
   */
  public static boolean isModern(String method, JsonNode params) {
    JsonNode meta = params == null ? null : params.get("_meta");
    return ServerInfo.DISCOVER.equals(method)
        || (meta != null && meta.isObject() && meta.has(RequestContext.PROTOCOL_VERSION));
  }

  /** The work that answers a request: its result (plain values), its notifications first. */
  @FunctionalInterface
  public interface Call {
    Mono<Map<String, Object>> run(Consumer<Object> notifications);
  }

  /** The work that answers a 2026-era request, its context then method judged; else thrown. */
  public Call accept(String method, JsonNode params) {
    RequestContext context = RequestContext.read(params, ServerInfo.SUPPORTED_VERSIONS);
    if (!List.of(ServerInfo.DISCOVER, TOOLS_LIST, TOOLS_CALL).contains(method)) {
      String removed = REMOVED.get(method);
      throw ProtocolError.methodNotFound(
          "Method not found: "
              + method
              + (removed != null
                  ? " (" + removed + ")."
                  : ". This server offers server/discover, tools/list and tools/call."));
    }
    String problem = ParamsCheck.problem(method, params);
    if (problem != null) {
      throw ProtocolError.invalidParams("Invalid params: " + problem);
    }
    return switch (method) {
      case TOOLS_CALL -> call(context, params);
      case TOOLS_LIST -> notifications -> Mono.just(tools());
      default -> notifications -> Mono.just(ServerInfo.discoverResult());
    };
  }

  private Map<String, Object> tools() {
    Map<?, ?> plain =
        asMap(SdkResults.plain(new ListToolsResult(List.of(tool.definition()), null, null)));
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("resultType", "complete");
    result.put("tools", plain.get("tools"));
    ServerInfo.cacheable(result);
    return result;
  }

  private Call call(RequestContext context, JsonNode params) {
    CallToolRequest request =
        mapper.convertValue(SdkJsonMapper.plain(params), CallToolRequest.class);
    if (!ExecuteCodeTool.NAME.equals(request.name())) {
      throw ProtocolError.invalidParams(
          "Unknown tool: \""
              + request.name()
              + "\". This server has one tool, "
              + ExecuteCodeTool.NAME
              + ".");
    }
    return notifications ->
        tool.call(channel(context, notifications), request).map(this::callResult);
  }

  /** Progress on the request's token; log messages only at or above the level it asked for. */
  private static CallChannel channel(RequestContext context, Consumer<Object> out) {
    return new CallChannel() {
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
                new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION, method, params)));
      }
    };
  }

  private Map<String, Object> callResult(CallToolResult call) {
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("resultType", "complete");
    asMap(SdkResults.plain(call)).forEach((k, v) -> result.put((String) k, v));
    result.put("_meta", ServerInfo.withIdentity(result.get("_meta")));
    return result;
  }

  /** The plain map of a result, or, for a result with parts written by Jackson, its conversion. */
  private Map<?, ?> asMap(Object plain) {
    return plain instanceof Map<?, ?> map ? map : mapper.convertValue(plain, MAP);
  }
}
