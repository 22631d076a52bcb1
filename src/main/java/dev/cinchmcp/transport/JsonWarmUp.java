package dev.cinchmcp.transport;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cinchmcp.json.ParamsCheck;
import dev.cinchmcp.json.PlainValues;
import dev.cinchmcp.json.SdkParams;
import dev.cinchmcp.json.SdkResults;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Has Jackson build, ahead and on another core, what a session's first messages need: built on
 * first use it costs {@code initialize} tens of milliseconds. Only memory is read and written.
 */
public final class JsonWarmUp {

  private static final Logger log = LoggerFactory.getLogger(JsonWarmUp.class);

  private static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{"
          + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"roots\":{\"listChanged\":true},\"sampling\":{},"
          + "\"elicitation\":{}},\"clientInfo\":{\"name\":\"warm-up\",\"version\":\"1\"}}}";
  private static final String CALL =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{"
          + "\"name\":\"execute_code\",\"arguments\":{\"code\":\"print(1)\"},\"_meta\":{\"progressToken\":1}}}";

  private JsonWarmUp() {}

  /** The parser's first set-up costs ~10 ms; it needs no mapper, so runs beside its making. */
  public static void parser() {
    try (JsonParser p = new JsonFactory().createParser("{\"a\":[1,2.5,\"b\",true,null]}")) {
      while (p.nextToken() != null) {
        p.getText();
      }
    } catch (IOException | RuntimeException | LinkageError e) {
      log.debug("JSON parser warm-up skipped: {}", e.toString());
    }
  }

  /** Never throws (a failure only means the first real message pays); nor does {@link #calls}. */
  public static void initialize(ObjectMapper mapper) {
    try {
      JsonNode params =
          new LineParser(mapper)
              .parse(INITIALIZE.getBytes(StandardCharsets.UTF_8))
              .node()
              .get("params");
      ParamsCheck.problem("initialize", params);
      SdkParams.read(PlainValues.of(params), McpSchema.InitializeRequest.class);
      McpSchema.ServerCapabilities capabilities =
          McpSchema.ServerCapabilities.builder().tools(false).logging().build();
      Object result =
          SdkResults.plain(
              McpSchema.InitializeResult.builder(
                      "2025-06-18",
                      capabilities,
                      McpSchema.Implementation.builder("warm-up", "1").build())
                  .build());
      new JsonRpcWriter(mapper, OutputStream.nullOutputStream())
          .write(JsonRpcWriter.result(0, result));
      SdkSessionBridge.toMessage(
          mapper,
          mapper.readTree("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"));
    } catch (Exception | LinkageError e) {
      log.debug("JSON warm-up skipped: {}", e.toString());
    }
  }

  public static void calls(ObjectMapper mapper) {
    try {
      JsonNode call = new LineParser(mapper).parse(CALL.getBytes(StandardCharsets.UTF_8)).node();
      SdkParams.read(PlainValues.of(call.get("params")), McpSchema.CallToolRequest.class);
      JsonRpcWriter writer = new JsonRpcWriter(mapper, OutputStream.nullOutputStream());
      writer.write(
          SdkResults.plain(
              McpSchema.CallToolResult.builder()
                  .addTextContent("warm")
                  .structuredContent(Map.of("stdout", ""))
                  .isError(false)
                  .build()));
      writer.write(
          SdkResults.plain(
              McpSchema.ListToolsResult.builder(
                      List.of(McpSchema.Tool.builder("warm", Map.of("type", "object")).build()))
                  .build()));
      writer.write(
          SdkResults.plainMessage(
              new McpSchema.JSONRPCNotification(
                  "notifications/progress",
                  McpSchema.ProgressNotification.builder(1, 1.0).message("warm").build())));
    } catch (Exception | LinkageError e) {
      log.debug("JSON warm-up skipped: {}", e.toString());
    }
  }
}
