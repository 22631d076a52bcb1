package dev.cinchmcp.json;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.modelcontextprotocol.spec.McpSchema;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The SDK's records that {@link SdkResults} writes by hand have the fields it knows of. When an SDK
 * upgrade adds one, the hand-written JSON would drop it without a word; this test fails instead,
 * and says which: teach {@code SdkResults} to write the field (or to leave such records to
 * Jackson), extend {@code SdkConversionTest}'s byte-for-byte comparisons with a value in it, then
 * list it here.
 */
class SdkRecordFieldsTest {

  record Known(Class<?> type, List<String> fields) {
    @Override
    public String toString() {
      return type.getSimpleName();
    }
  }

  static List<Known> written() {
    return List.of(
        new Known(
            McpSchema.InitializeResult.class,
            List.of("protocolVersion", "capabilities", "serverInfo", "instructions", "meta")),
        new Known(
            McpSchema.ServerCapabilities.class,
            List.of(
                "completions",
                "experimental",
                "logging",
                "prompts",
                "resources",
                "tools",
                "extensions")),
        new Known(McpSchema.ServerCapabilities.ToolCapabilities.class, List.of("listChanged")),
        new Known(
            McpSchema.Implementation.class,
            List.of("name", "title", "version", "description", "icons", "websiteUrl")),
        new Known(
            McpSchema.CallToolResult.class,
            List.of("content", "isError", "structuredContent", "meta")),
        new Known(McpSchema.TextContent.class, List.of("annotations", "text", "meta")),
        new Known(McpSchema.ListToolsResult.class, List.of("tools", "nextCursor", "meta")),
        new Known(
            McpSchema.Tool.class,
            List.of(
                "name",
                "title",
                "description",
                "inputSchema",
                "outputSchema",
                "annotations",
                "meta",
                "icons")),
        new Known(
            McpSchema.ToolAnnotations.class,
            List.of(
                "title",
                "readOnlyHint",
                "destructiveHint",
                "idempotentHint",
                "openWorldHint",
                "returnDirect")),
        new Known(
            McpSchema.ProgressNotification.class,
            List.of("progressToken", "progress", "total", "message", "meta")),
        new Known(
            McpSchema.LoggingMessageNotification.class, List.of("level", "logger", "data", "meta")),
        new Known(McpSchema.JSONRPCNotification.class, List.of("jsonrpc", "method", "params")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("written")
  void theRecordHasOnlyTheFieldsTheHandWrittenJsonKnows(Known known) {
    List<String> fields =
        Arrays.stream(known.type().getRecordComponents()).map(RecordComponent::getName).toList();
    assertEquals(
        known.fields(),
        fields,
        "McpSchema."
            + known.type().getSimpleName()
            + " changed in the SDK: make SdkResults write every field, then update this list");
  }
}
