package dev.cinchmcp.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.SandboxFacts;
import dev.cinchmcp.backend.choice.UnavailableRunner;
import dev.cinchmcp.tool.ExecuteCodeTool;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.InitializeResult;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The hand-made conversions on the way in ({@link SdkJsonMapper}) and out ({@link SdkResults}) give
 * exactly what Jackson gives for the same message; what they do not know is left to Jackson.
 */
class SdkConversionTest {

  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
  private static final SdkJsonMapper SDK =
      new SdkJsonMapper(CompletableFuture.completedFuture(JSON));

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{}",
        "{\"a\":[1,-2,3000000000,123456789012345678901234567890,2.5,1e400,-0.0,\"x\",true,false,null],"
            + "\"b\":{\"c\":{\"d\":[]}},\"\":\"\\u2028\"}",
        "{\"n\":9223372036854775807,\"m\":-9223372036854775809,\"f\":0.1}",
      })
  void plainValuesAreJacksonsUntypedValues(String json) throws Exception {
    JsonNode node = JSON.readTree(json);
    Object jackson = JSON.convertValue(node, Object.class);
    Object plain = SdkJsonMapper.plain(node);
    assertEquals(jackson, plain);
    assertEquals(typesOf(jackson), typesOf(plain));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"c\",\"version\":\"1\"}}",
        "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"roots\":{\"listChanged\":true},\"sampling\":{},"
            + "\"elicitation\":{},\"experimental\":{\"x\":{\"y\":1}}},"
            + "\"clientInfo\":{\"name\":\"claude-code\",\"title\":\"Claude Code\",\"version\":\"2.0.1\"},"
            + "\"_meta\":{\"k\":\"v\"}}",
        "{\"protocolVersion\":\"2024-11-05\",\"capabilities\":{\"roots\":{}},\"clientInfo\":{\"name\":\"c\",\"version\":\"0\"}}",
      })
  void initializeParamsAreBuiltAsJacksonBuildsThem(String json) throws Exception {
    assertBuiltAsJacksonBuilds(
        SdkJsonMapper.plain(JSON.readTree(json)), McpSchema.InitializeRequest.class);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"name\":\"execute_code\",\"arguments\":{\"code\":\"print(1)\",\"language\":\"python\"}}",
        "{\"name\":\"execute_code\",\"arguments\":{\"code\":\"x\",\"files\":[{\"path\":\"a\",\"content\":\"b\"}],"
            + "\"args\":[\"1\"],\"stdin\":\"in\"},\"_meta\":{\"progressToken\":7}}",
        "{\"name\":\"execute_code\"}",
        "{\"name\":\"execute_code\",\"arguments\":null}",
      })
  void callParamsAreBuiltAsJacksonBuildsThem(String json) throws Exception {
    Object params = SdkJsonMapper.plain(JSON.readTree(json));
    Object fast = assertBuiltAsJacksonBuilds(params, McpSchema.CallToolRequest.class);
    // The SDK's server converts them itself, through the mapper it was given.
    assertEquals(fast, SDK.convertValue(params, new TypeRef<McpSchema.CallToolRequest>() {}));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        // a field with no hand-made reading, or a value of another type: Jackson decides
        "{\"protocolVersion\":\"2025-06-18\",\"clientInfo\":{\"name\":\"c\",\"version\":\"1\",\"icons\":[]}}",
        "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"sampling\":{\"context\":{}}}}",
        "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"elicitation\":{\"form\":{}}}}",
        "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"extensions\":{}}}",
        "{\"protocolVersion\":\"2025-06-18\",\"clientInfo\":{\"name\":7,\"version\":\"1\"}}",
        "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"roots\":{\"listChanged\":\"yes\"}}}",
        "{\"protocolVersion\":\"2025-06-18\",\"future\":1}",
        // what the SDK's records refuse (Jackson then says so, as before)
        "{\"protocolVersion\":\"2024-11-05\"}",
        "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{}}",
      })
  void initializeParamsItDoesNotKnowAreLeftToJackson(String json) throws Exception {
    Object params = SdkJsonMapper.plain(JSON.readTree(json));
    assertNull(SdkJsonMapper.read(params, McpSchema.InitializeRequest.class));
  }

  @Test
  void callParamsItDoesNotKnowAreLeftToJackson() throws Exception {
    for (String json :
        List.of(
            "{\"name\":\"execute_code\",\"task\":{}}",
            "{\"name\":\"execute_code\",\"arguments\":[1]}",
            "{\"name\":1}")) {
      assertNull(
          SdkJsonMapper.read(
              SdkJsonMapper.plain(JSON.readTree(json)), McpSchema.CallToolRequest.class),
          json);
    }
    assertNull(SdkJsonMapper.read(List.of(), McpSchema.CallToolRequest.class));
    assertNull(SdkJsonMapper.read(Map.of("name", "x"), McpSchema.ListToolsResult.class));
  }

  @Test
  void theInitializeResultIsWrittenAsJacksonWritesIt() throws Exception {
    ServerCapabilities capabilities = ServerCapabilities.builder().tools(false).logging().build();
    for (InitializeResult result :
        List.of(
            new InitializeResult(
                "2025-06-18",
                capabilities,
                new McpSchema.Implementation("cinch-mcp", null, "0.1.0", null, null, null),
                null,
                null),
            new InitializeResult(
                "2025-06-18",
                ServerCapabilities.builder().tools(true).experimental(Map.of("x", 1)).build(),
                new McpSchema.Implementation("cinch-mcp", "Cinch", "0.1.0", null, null, null),
                "Run code here.",
                Map.of("m", "v")))) {
      assertWrittenAsJacksonWrites(result);
    }
  }

  @Test
  void theCallResultIsWrittenAsJacksonWritesIt() throws Exception {
    for (CallToolResult result :
        List.of(
            CallToolResult.builder()
                .addTextContent("Exit code: 0\n\u2028")
                .structuredContent(Map.of("stdout", "42\n", "exitCode", 0))
                .isError(false)
                .build(),
            CallToolResult.builder().addTextContent("failed").isError(true).build(),
            new CallToolResult(
                List.of(new McpSchema.TextContent(null, "a", Map.of("k", "v"))),
                null,
                null,
                Map.of("meta", 1)))) {
      assertWrittenAsJacksonWrites(result);
    }
  }

  @Test
  void theToolListIsWrittenAsJacksonWritesIt() throws Exception {
    McpSchema.Tool executeCode =
        new ExecuteCodeTool(
                new UnavailableRunner(
                    "none", new RunFailure(RunFailure.Reason.NOT_CONFIGURED, "not configured")),
                Executors.newSingleThreadScheduledExecutor(),
                SandboxFacts.SERVICE)
            .specification()
            .tool();
    McpSchema.Tool bare = McpSchema.Tool.builder("bare", Map.of("type", "object")).build();
    for (McpSchema.ListToolsResult result :
        List.of(
            new McpSchema.ListToolsResult(List.of(executeCode), null, null),
            new McpSchema.ListToolsResult(List.of(executeCode, bare), "next", Map.of("m", 1)))) {
      assertWrittenAsJacksonWrites(result);
    }
  }

  @Test
  void progressAndLogNotificationsAreWrittenAsJacksonWritesThem() throws Exception {
    for (McpSchema.JSONRPCNotification n :
        List.of(
            new McpSchema.JSONRPCNotification(
                McpSchema.JSONRPC_VERSION,
                McpSchema.METHOD_NOTIFICATION_PROGRESS,
                new McpSchema.ProgressNotification("tok", 2.0, null, "Running (2 s)", null)),
            new McpSchema.JSONRPCNotification(
                McpSchema.JSONRPC_VERSION,
                McpSchema.METHOD_NOTIFICATION_PROGRESS,
                new McpSchema.ProgressNotification(7, 1.0, 10.0, null, Map.of("k", "v"))),
            new McpSchema.JSONRPCNotification(
                McpSchema.JSONRPC_VERSION,
                McpSchema.METHOD_NOTIFICATION_MESSAGE,
                new McpSchema.LoggingMessageNotification(
                    McpSchema.LoggingLevel.WARNING,
                    "cinch-mcp",
                    "The Cinch API is rate limiting",
                    null)))) {
      assertEquals(JSON.writeValueAsString(n), JSON.writeValueAsString(SdkResults.plainMessage(n)));
    }
    McpSchema.JSONRPCNotification other =
        new McpSchema.JSONRPCNotification(
            McpSchema.JSONRPC_VERSION, "notifications/tools/list_changed", null);
    assertSame(other, SdkResults.plainMessage(other));
  }

  @Test
  void resultsItDoesNotWriteAreLeftToJackson() {
    CallToolResult image =
        new CallToolResult(
            List.of(new McpSchema.ImageContent(null, "AAAA", "image/png", null)),
            false,
            null,
            null);
    assertSame(image, SdkResults.plain(image));
    InitializeResult withPrompts =
        new InitializeResult(
            "2025-06-18",
            ServerCapabilities.builder().prompts(true).build(),
            new McpSchema.Implementation("x", null, "1", null, null, null),
            null,
            null);
    assertSame(withPrompts, SdkResults.plain(withPrompts));
    Object other = new McpSchema.ListPromptsResult(List.of(), null, null);
    assertSame(other, SdkResults.plain(other));
  }

  /** Reads params into a record of this type by hand, as Jackson would; returns the record. */
  private static Object assertBuiltAsJacksonBuilds(Object params, Class<?> type) {
    Object fast = SdkJsonMapper.read(params, type);
    assertNotNull(fast, "built by hand");
    assertEquals(JSON.convertValue(params, type), fast);
    return fast;
  }

  /** A result written by hand ({@link SdkResults#plain}) is what Jackson writes for it. */
  private static void assertWrittenAsJacksonWrites(Object result) throws Exception {
    assertEquals(
        JSON.writeValueAsString(result), JSON.writeValueAsString(SdkResults.plain(result)));
  }

  private static Object typesOf(Object value) {
    if (value instanceof Map<?, ?> map) {
      Map<Object, Object> types = new java.util.LinkedHashMap<>();
      map.forEach((k, v) -> types.put(k, typesOf(v)));
      return types;
    }
    if (value instanceof List<?> list) {
      return list.stream().map(SdkConversionTest::typesOf).toList();
    }
    return value == null ? "null" : value.getClass().getName();
  }
}
