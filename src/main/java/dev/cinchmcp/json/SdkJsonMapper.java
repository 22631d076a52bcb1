package dev.cinchmcp.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.ClientCapabilities;
import java.io.IOException;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The SDK's Jackson mapper, except that the params of {@code initialize} and {@code tools/call}
 * become the SDK's records by hand, from plain values ({@link #read}): Jackson's reflection costs a
 * fresh JVM ~50 ms on first use. Params with a field not read here are left to Jackson. This
 * package replaced by Jackson's own conversions (6 Dec 2026) made a lone jar's {@code initialize}
 * on Java 17 ~140 ms later (~490 against ~350 ms, medians of 8 alternated starts, load 4.8-6.9).
 */
public final class SdkJsonMapper implements McpJsonMapper {

  private static final Set<String> INITIALIZE =
      Set.of("protocolVersion", "capabilities", "clientInfo", "_meta");
  private static final Set<String> CAPABILITIES =
      Set.of("experimental", "roots", "sampling", "elicitation");
  private static final Set<String> CLIENT_INFO = Set.of("name", "title", "version");
  private static final Set<String> CALL = Set.of("name", "arguments", "_meta");

  private final CompletableFuture<ObjectMapper> mapper;
  private volatile JacksonMcpJsonMapper jackson;

  /** The mapper may still be being made: it is waited for at the first conversion. */
  public SdkJsonMapper(CompletableFuture<ObjectMapper> mapper) {
    this.mapper = mapper;
  }

  private JacksonMcpJsonMapper jackson() {
    JacksonMcpJsonMapper j = jackson;
    if (j == null) {
      j = new JacksonMcpJsonMapper(mapper.join());
      jackson = j;
    }
    return j;
  }

  @Override
  public <T> T convertValue(Object fromValue, Class<T> type) {
    Object built = read(fromValue, type);
    return built != null ? type.cast(built) : jackson().convertValue(fromValue, type);
  }

  @Override
  @SuppressWarnings("unchecked")
  public <T> T convertValue(Object fromValue, TypeRef<T> type) {
    Object built = read(fromValue, type.getType());
    return built != null ? (T) built : jackson().convertValue(fromValue, type);
  }

  @Override
  public <T> T readValue(String content, Class<T> type) throws IOException {
    return jackson().readValue(content, type);
  }

  @Override
  public <T> T readValue(byte[] content, Class<T> type) throws IOException {
    return jackson().readValue(content, type);
  }

  @Override
  public <T> T readValue(String content, TypeRef<T> type) throws IOException {
    return jackson().readValue(content, type);
  }

  @Override
  public <T> T readValue(byte[] content, TypeRef<T> type) throws IOException {
    return jackson().readValue(content, type);
  }

  @Override
  public String writeValueAsString(Object value) throws IOException {
    return jackson().writeValueAsString(value);
  }

  @Override
  public byte[] writeValueAsBytes(Object value) throws IOException {
    return jackson().writeValueAsBytes(value);
  }

  /**
   * A JSON tree as the plain values the SDK takes for params (ordered maps, lists, strings,
   * Jackson's numbers, booleans, null), as {@code convertValue(node, Object.class)} gives them
   * without its first use's tens of ms; loops, not lambdas, whose first use costs milliseconds.
   */
  public static Object plain(JsonNode node) {
    if (node.isObject()) {
      Map<String, Object> map = new LinkedHashMap<>();
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        map.put(field.getKey(), plain(field.getValue()));
      }
      return map;
    }
    if (node.isArray()) {
      List<Object> list = new ArrayList<>(node.size());
      for (JsonNode element : node) {
        list.add(plain(element));
      }
      return list;
    }
    return node.isTextual()
        ? node.textValue()
        : node.isNumber() ? node.numberValue() : node.isBoolean() ? node.booleanValue() : null;
  }

  /** The record of this type for these params, or null to leave them to Jackson. */
  public static Object read(Object params, Type type) {
    if (!(params instanceof Map<?, ?> map)) {
      return null;
    }
    try {
      if (type == McpSchema.InitializeRequest.class) {
        return initialize(map);
      }
      if (type == McpSchema.CallToolRequest.class) {
        return call(map);
      }
    } catch (RuntimeException unexpected) {
      // a value of another type, or one the records refuse: Jackson says what is wrong with it
    }
    return null;
  }

  private static McpSchema.InitializeRequest initialize(Map<?, ?> params) {
    Map<?, ?> capabilities = map(params.get("capabilities"));
    Map<?, ?> clientInfo = map(params.get("clientInfo"));
    if (!INITIALIZE.containsAll(params.keySet())
        || (capabilities != null && !knownCapabilities(capabilities))
        || (clientInfo != null && !CLIENT_INFO.containsAll(clientInfo.keySet()))) {
      return null;
    }
    return new McpSchema.InitializeRequest(
        (String) params.get("protocolVersion"),
        capabilities == null ? null : capabilities(capabilities),
        clientInfo == null
            ? null
            : new McpSchema.Implementation(
                (String) clientInfo.get("name"),
                (String) clientInfo.get("title"),
                (String) clientInfo.get("version"),
                null,
                null,
                null),
        meta(params));
  }

  private static boolean knownCapabilities(Map<?, ?> capabilities) {
    Map<?, ?> roots = map(capabilities.get("roots"));
    Map<?, ?> sampling = map(capabilities.get("sampling"));
    Map<?, ?> elicitation = map(capabilities.get("elicitation"));
    return CAPABILITIES.containsAll(capabilities.keySet())
        && (roots == null || Set.of("listChanged").containsAll(roots.keySet()))
        && (sampling == null || sampling.isEmpty())
        && (elicitation == null || elicitation.isEmpty());
  }

  private static ClientCapabilities capabilities(Map<?, ?> capabilities) {
    Map<?, ?> roots = map(capabilities.get("roots"));
    @SuppressWarnings("unchecked")
    Map<String, Object> experimental = (Map<String, Object>) map(capabilities.get("experimental"));
    return new ClientCapabilities(
        experimental,
        roots == null
            ? null
            : new ClientCapabilities.RootCapabilities((Boolean) roots.get("listChanged")),
        capabilities.get("sampling") == null ? null : new ClientCapabilities.Sampling(),
        capabilities.get("elicitation") == null
            ? null
            : new ClientCapabilities.Elicitation(null, null));
  }

  @SuppressWarnings("unchecked")
  private static McpSchema.CallToolRequest call(Map<?, ?> params) {
    if (!CALL.containsAll(params.keySet())) {
      return null;
    }
    return new McpSchema.CallToolRequest(
        (String) params.get("name"),
        (Map<String, Object>) map(params.get("arguments")),
        meta(params));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> meta(Map<?, ?> params) {
    return (Map<String, Object>) map(params.get("_meta"));
  }

  private static Map<?, ?> map(Object value) {
    return (Map<?, ?>) value;
  }
}
