package dev.cinchmcp.transport;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cinchmcp.json.ParamsCheck;
import dev.cinchmcp.json.SdkJsonMapper;
import dev.cinchmcp.json.SdkResults;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mapper, and what Jackson builds on first use for a session's first messages (tens of ms on
 * {@code initialize}) built ahead, over two cores: one worker makes the mapper and readies the
 * writers, the other the parser and SecureRandom. What only calls need waits for the connect.
 */
public final class JsonWarmUp {

  static final long CONNECT_FIRST_MS = 500; // the longest the calls' warm-up waits for a connect

  private static final Logger log = LoggerFactory.getLogger(JsonWarmUp.class);

  private static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{"
          + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"roots\":{\"listChanged\":true},\"sampling\":{},"
          + "\"elicitation\":{}},\"clientInfo\":{\"name\":\"warm-up\",\"version\":\"1\"}}}";
  private static final String CALL =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{"
          + "\"name\":\"execute_code\",\"arguments\":{\"code\":\"print(1)\"},\"_meta\":{\"progressToken\":1}}}";

  private final CompletableFuture<ObjectMapper> mapper = new CompletableFuture<>();
  private CompletableFuture<Void> initializeReady;

  public CompletableFuture<ObjectMapper> mapper() {
    return mapper;
  }

  /** What only calls need waits for the first answer ({@code connected}): it would slow it. */
  public void start(ExecutorService workers, CompletableFuture<Void> connected) {
    CompletableFuture<Void> writersReady =
        CompletableFuture.runAsync(
            () -> {
              try {
                mapper.complete(
                    new ObjectMapper()
                        .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false));
              } catch (RuntimeException | LinkageError e) {
                mapper.completeExceptionally(e);
                return;
              }
              initialize(mapper.join());
            },
            workers);
    CompletableFuture<Void> parserReady =
        CompletableFuture.runAsync(
            () -> {
              parser();
              UUID.randomUUID();
            },
            workers);
    initializeReady = CompletableFuture.allOf(writersReady, parserReady);
    CompletableFuture.allOf(
            initializeReady,
            connected.copy().completeOnTimeout(null, CONNECT_FIRST_MS, TimeUnit.MILLISECONDS))
        .thenRunAsync(() -> calls(mapper.join()), workers);
  }

  public CompletableFuture<Void> initializeReady() {
    return initializeReady;
  }

  /** The parser's first set-up costs ~10 ms; it needs no mapper, so runs beside its making. */
  private static void parser() {
    try (JsonParser p = new JsonFactory().createParser("{\"a\":[1,2.5,\"b\",true,null]}")) {
      while (p.nextToken() != null) {
        p.getText();
      }
    } catch (IOException | RuntimeException | LinkageError e) {
      log.debug("JSON parser warm-up skipped: {}", e.toString());
    }
  }

  /** Never throws (a failure only means the first real message pays); nor does {@link #calls}. */
  private static void initialize(ObjectMapper mapper) {
    try {
      JsonNode params = parsed(mapper, INITIALIZE).get("params");
      ParamsCheck.problem("initialize", params);
      SdkJsonMapper.read(SdkJsonMapper.plain(params), McpSchema.InitializeRequest.class);
      Object result =
          SdkResults.plain(
              McpSchema.InitializeResult.builder(
                      "2025-06-18",
                      McpSchema.ServerCapabilities.builder().tools(false).logging().build(),
                      McpSchema.Implementation.builder("warm-up", "1").build())
                  .build());
      new JsonRpcWriter(mapper, OutputStream.nullOutputStream())
          .write(JsonRpcWriter.result(0, result));
      SdkSessionBridge.notification(
          mapper.readTree("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"));
    } catch (Exception | LinkageError e) {
      log.debug("JSON warm-up skipped: {}", e.toString());
    }
  }

  private static JsonNode parsed(ObjectMapper mapper, String line) {
    LineParser parser = new LineParser(mapper, InputStream.nullInputStream());
    return parser.parse(line.getBytes(StandardCharsets.UTF_8)).node();
  }

  private static void calls(ObjectMapper mapper) {
    try {
      JsonNode params = parsed(mapper, CALL).get("params");
      SdkJsonMapper.read(SdkJsonMapper.plain(params), McpSchema.CallToolRequest.class);
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
