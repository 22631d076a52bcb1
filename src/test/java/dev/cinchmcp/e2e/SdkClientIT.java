package dev.cinchmcp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cinchmcp.testkit.Await;
import dev.cinchmcp.testkit.FakeCinchApi;
import dev.cinchmcp.testkit.JarProcess;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built jar driven by a real MCP client, the SDK's own, over real stdio: the path a user's
 * assistant takes. The jar's stdout is copied aside with tee, so the test can also check that every
 * line it wrote was a JSON-RPC message.
 */
class SdkClientIT {

  @RegisterExtension
  final FakeCinchApi api =
      new FakeCinchApi()
          .answeringWhen(
              "print(6 * 7)",
              FakeCinchApi.json(
                  "{\"stdout\":\"42\\n\",\"stderr\":\"\",\"exitCode\":0,\"timedOut\":false,\"durationMs\":287}"))
          .answeringWhen(
              "raise",
              FakeCinchApi.json(
                  "{\"stdout\":\"\",\"stderr\":\"Traceback (most recent call last):\\nValueError: no\\n\","
                      + "\"exitCode\":1,\"timedOut\":false,\"durationMs\":31}"));

  @TempDir Path tmp;

  @Test
  void realClientListsTheToolAndRunsCode() throws Exception {
    Path stdoutCopy = tmp.resolve("stdout.jsonl");
    Map<String, String> env = new HashMap<>(JarProcess.envFor(api.baseUrl()));
    env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    ServerParameters params =
        ServerParameters.builder("sh")
            .args(
                "-c",
                "\"$0\" -jar \"$1\" | tee \"$2\"",
                JarProcess.java(),
                JarProcess.jar().toString(),
                stdoutCopy.toString())
            .env(env)
            .build();
    var transport = new StdioClientTransport(params, new JacksonMcpJsonMapper(JarProcess.JSON));
    try (McpSyncClient client =
        McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30)).build()) {
      McpSchema.InitializeResult init = client.initialize();
      assertEquals("cinch-mcp", init.serverInfo().name());
      assertNotNull(init.capabilities().tools());
      assertNotNull(init.capabilities().logging());

      List<Tool> tools = client.listTools().tools();
      assertEquals(1, tools.size());
      Tool tool = tools.get(0);
      assertEquals("execute_code", tool.name());
      assertNotNull(tool.title());
      assertTrue(tool.description().contains("standard library only"), tool.description());
      assertTrue(tool.description().contains("No network"), tool.description());
      @SuppressWarnings("unchecked")
      Map<String, Object> props = (Map<String, Object>) tool.inputSchema().get("properties");
      assertEquals(
          List.of("code", "language", "stdin", "files", "args"), List.copyOf(props.keySet()));
      assertEquals(List.of("code"), tool.inputSchema().get("required"));
      assertEquals(false, tool.inputSchema().get("additionalProperties"));
      assertNotNull(tool.outputSchema());
      assertEquals(Boolean.TRUE, tool.annotations().readOnlyHint());
      assertEquals(Boolean.FALSE, tool.annotations().openWorldHint());

      CallToolResult ok =
          client.callTool(
              new McpSchema.CallToolRequest("execute_code", Map.of("code", "print(6 * 7)"), null));
      assertFalse(ok.isError());
      String text = ((TextContent) ok.content().get(0)).text();
      assertTrue(text.contains("Exit code: 0") && text.contains("42"), text);
      @SuppressWarnings("unchecked")
      Map<String, Object> structured = (Map<String, Object>) ok.structuredContent();
      assertEquals("42\n", structured.get("stdout"));
      assertEquals(0, structured.get("exitCode"));
      assertEquals(287, structured.get("durationMs"));
      assertEquals("cinch", structured.get("backend"));

      CallToolResult failed =
          client.callTool(
              new McpSchema.CallToolRequest(
                  "execute_code",
                  Map.of("code", "raise ValueError('no')", "language", "python"),
                  null));
      assertTrue(failed.isError());
      String failedText = ((TextContent) failed.content().get(0)).text();
      assertTrue(
          failedText.contains("Exit code: 1") && failedText.contains("ValueError: no"), failedText);
    }

    // tee writes each reply to the client before the file: the last may reach the file only after
    // the client has it and has closed (CI once read three of the four).
    List<String> lines =
        Await.untilPresent(
            () -> {
              String copy = Files.readString(stdoutCopy);
              List<String> whole = copy.lines().toList();
              return copy.endsWith("\n") && whole.size() >= 4
                  ? Optional.of(whole)
                  : Optional.empty();
            },
            Duration.ofSeconds(10),
            () -> "the four replies in the copy of stdout: " + Files.readString(stdoutCopy));
    for (String line : lines) {
      JsonNode node = JarProcess.JSON.readTree(line);
      assertEquals("2.0", node.path("jsonrpc").asText(), "not JSON-RPC: " + line);
    }
  }
}
