package dev.cinchmcp.mcp2026;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cinchmcp.json.ParamsCheck;
import dev.cinchmcp.json.PlainValues;
import dev.cinchmcp.json.SdkParams;
import dev.cinchmcp.json.SdkResults;
import dev.cinchmcp.tool.ExecuteCodeTool;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ListToolsResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import reactor.core.publisher.Mono;

/**
 * Answers 2026-07-28 requests: {@code server/discover}, {@code tools/list} and {@code tools/call},
 * each judged on its own {@code _meta}. The tool is the same one the 2025 session serves, so a call
 * gets the same text, structured content, cuts and failure wording in both eras; only the envelope
 * differs ({@code resultType}, cache hints, the server's identity in each result's {@code _meta}).
 */
public final class StatelessServer {

  /** The versions served per request; the 2025 ones are served through {@code initialize}. */
  public static final List<String> SUPPORTED_VERSIONS = List.of("2026-07-28");

  static final String TOOLS_LIST = "tools/list";
  static final String TOOLS_CALL = "tools/call";

  /**
   * How long a client may keep the discover and tools/list results. None: they cannot change while
   * this process runs, but they describe this machine's backend and interpreters, which a restart
   * with other settings changes, and a client may key its cache on less than the settings.
   */
  static final long TTL_MS = 0;

  /** The results describe this user's machine (its backend, its interpreters): not for sharing. */
  static final String CACHE_SCOPE = "private";

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
  private final Map<String, Object> serverInfo;
  private final String instructions;
  private final McpJsonMapper mapper;

  /**
   * @param mapper for results with parts {@link SdkResults} does not write by hand
   */
  public StatelessServer(
      ExecuteCodeTool tool,
      String name,
      String version,
      String instructions,
      McpJsonMapper mapper) {
    this.tool = tool;
    this.serverInfo = serverInfo(name, version);
    this.instructions = instructions;
    this.mapper = mapper;
  }

  /** The work that answers one request, once its turn comes. */
  @FunctionalInterface
  public interface Call {
    /**
     * @param notifications where the call's progress and log messages go, in order, before its
     *     result
     * @return the result (a JSON object as plain values)
     */
    Mono<Map<String, Object>> run(Consumer<Object> notifications);
  }

  /**
   * Judges a 2026-era request as it is read: its context, then its method. Returns the work that
   * answers it.
   *
   * @throws ProtocolError when it is answered with an error instead
   */
  public Call accept(String method, JsonNode params) {
    RequestContext context = RequestContext.read(params, SUPPORTED_VERSIONS);
    if (!Era.DISCOVER.equals(method) && !TOOLS_LIST.equals(method) && !TOOLS_CALL.equals(method)) {
      throw ProtocolError.methodNotFound(notFound(method));
    }
    String problem = ParamsCheck.problem(method, params);
    if (problem != null) {
      throw ProtocolError.invalidParams("Invalid params: " + problem);
    }
    return switch (method) {
      case TOOLS_CALL -> call(context, params);
      case TOOLS_LIST -> notifications -> Mono.just(tools());
      default -> notifications -> Mono.just(discover());
    };
  }

  private static String notFound(String method) {
    String removed = REMOVED.get(method);
    return "Method not found: "
        + method
        + (removed != null
            ? " (" + removed + ")."
            : ". This server offers server/discover, tools/list and tools/call.");
  }

  private Map<String, Object> discover() {
    return discoverResult(serverInfo, instructions);
  }

  /**
   * The result of every {@code server/discover}: it depends on nothing a request says, so {@link
   * EarlyDiscover} can write it before the server is built.
   */
  static Map<String, Object> discoverResult(String name, String version, String instructions) {
    return discoverResult(serverInfo(name, version), instructions);
  }

  private static Map<String, Object> discoverResult(
      Map<String, Object> serverInfo, String instructions) {
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("resultType", "complete");
    result.put("supportedVersions", SUPPORTED_VERSIONS);
    Map<String, Object> capabilities = new LinkedHashMap<>();
    capabilities.put("tools", Map.of());
    capabilities.put("logging", Map.of()); // only for requests that set a log level
    result.put("capabilities", capabilities);
    result.put("instructions", instructions);
    cacheable(result, serverInfo);
    return result;
  }

  /** The server's identity as results carry it in {@code _meta}, in a fixed order. */
  private static Map<String, Object> serverInfo(String name, String version) {
    Map<String, Object> info = new LinkedHashMap<>();
    info.put("name", name);
    info.put("version", version);
    return info;
  }

  private Map<String, Object> tools() {
    Map<?, ?> plain =
        asMap(SdkResults.plain(new ListToolsResult(List.of(tool.definition()), null, null)));
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("resultType", "complete");
    result.put("tools", plain.get("tools"));
    cacheable(result, serverInfo);
    return result;
  }

  private Call call(RequestContext context, JsonNode params) {
    CallToolRequest request = callRequest(params);
    if (!ExecuteCodeTool.NAME.equals(request.name())) {
      throw ProtocolError.invalidParams(
          "Unknown tool: \""
              + request.name()
              + "\". This server has one tool, "
              + ExecuteCodeTool.NAME
              + ".");
    }
    return notifications ->
        tool.call(new RequestChannel(context, notifications), request).map(this::callResult);
  }

  private CallToolRequest callRequest(JsonNode params) {
    Object values = PlainValues.of(params);
    Object fast = SdkParams.read(values, CallToolRequest.class);
    return fast != null
        ? (CallToolRequest) fast
        : mapper.convertValue(values, new TypeRef<CallToolRequest>() {});
  }

  private Map<String, Object> callResult(CallToolResult call) {
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("resultType", "complete");
    asMap(SdkResults.plain(call)).forEach((k, v) -> result.put((String) k, v));
    result.put("_meta", withServerInfo(result.get("_meta"), serverInfo));
    return result;
  }

  private static void cacheable(Map<String, Object> result, Map<String, Object> serverInfo) {
    result.put("ttlMs", TTL_MS);
    result.put("cacheScope", CACHE_SCOPE);
    result.put("_meta", withServerInfo(null, serverInfo));
  }

  private static Map<String, Object> withServerInfo(Object meta, Map<String, Object> serverInfo) {
    Map<String, Object> withInfo = new LinkedHashMap<>();
    if (meta instanceof Map<?, ?> m) {
      m.forEach((k, v) -> withInfo.put((String) k, v));
    }
    withInfo.put(RequestContext.SERVER_INFO, serverInfo);
    return withInfo;
  }

  /** The plain map of a result, or, for a result with parts written by Jackson, its conversion. */
  private Map<?, ?> asMap(Object plain) {
    return plain instanceof Map<?, ?> map ? map : mapper.convertValue(plain, MAP);
  }
}
