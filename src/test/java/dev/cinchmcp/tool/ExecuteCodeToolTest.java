package dev.cinchmcp.tool;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.CodeRunner;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.SandboxFacts;
import dev.cinchmcp.backend.choice.UnavailableRunner;
import dev.cinchmcp.backend.cinch.CinchApiRunner;
import dev.cinchmcp.testkit.FakeCinchApi;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The tool's call handler with real runners: a {@link CinchApiRunner} against WireMock, and the
 * {@link UnavailableRunner} a misconfigured server uses. Calls carry no progress token, so the
 * handler needs no client exchange (the transport's own tests cover progress and logging to the
 * client).
 */
class ExecuteCodeToolTest {

  @RegisterExtension static final FakeCinchApi api = new FakeCinchApi();

  private static ExecuteCodeTool tool(CodeRunner runner) {
    return new ExecuteCodeTool(runner, api.runners().timers(), SandboxFacts.SERVICE);
  }

  private static CodeRunner cinch() {
    return api.runner(Duration.ofSeconds(5));
  }

  private static CallToolResult call(CodeRunner runner, Map<String, Object> arguments) {
    CallToolRequest request = new CallToolRequest(ExecuteCodeTool.NAME, arguments, null);
    return tool(runner)
        .specification()
        .callHandler()
        .apply(null, request)
        .block(Duration.ofSeconds(20));
  }

  private static String text(CallToolResult result) {
    return ((TextContent) result.content().get(0)).text();
  }

  @Test
  void runsTheProgramAndReturnsItsOutput() {
    api.answer(
        aResponse()
            .withStatus(200)
            .withBody(
                "{\"stdout\":\"4\\n\",\"stderr\":\"\",\"exitCode\":0,\"timedOut\":false,\"durationMs\":287}"));

    CallToolResult r = call(cinch(), Map.of("code", "print(2+2)", "language", "python"));

    assertFalse(r.isError(), text(r));
    assertTrue(text(r).contains("--- stdout ---\n4\n"), text(r));
    assertEquals("4\n", ((Map<?, ?>) r.structuredContent()).get("stdout"));
    api.verify(
        postRequestedFor(urlEqualTo("/run"))
            .withRequestBody(equalToJson("{\"code\":\"print(2+2)\",\"language\":\"python\"}")));
  }

  @Test
  void badArgumentsAreAnErrorAndNothingIsSent() {
    CallToolResult r = call(cinch(), Map.of("code", "x", "language", "cobol"));

    assertTrue(r.isError());
    assertTrue(text(r).startsWith("Invalid arguments"), text(r));
    api.verify(0, anyRequestedFor(anyUrl()));
  }

  @Test
  void codeWithALoneSurrogateIsRefusedWithItsPlaceAndNothingIsSent() {
    CallToolResult r = call(cinch(), Map.of("code", "x = 1\nprint('a\uD800')"));

    assertTrue(r.isError());
    assertTrue(
        text(r).contains("\"code\" holds a lone surrogate (U+D800) at line 2, column 9"), text(r));
    api.verify(0, anyRequestedFor(anyUrl()));
  }

  @Test
  void theDescriptionAndSchemaUseTheFactsOfTheBackendThatServes() {
    Tool tool =
        new ExecuteCodeTool(
                cinch(),
                api.runners().timers(),
                new SandboxFacts(
                    "Python 3.11.2, Node.js 20.20.2",
                    SandboxFacts.SERVICE_LIMITS,
                    SandboxFacts.GVISOR,
                    SandboxFacts.STANDARD_LIBRARY_ONLY,
                    SandboxFacts.TIME_LIMIT_SECONDS))
            .definition();

    assertTrue(
        tool.description().contains("- Python 3.11.2, Node.js 20.20.2, standard library only"));
    assertFalse(tool.description().contains("3.12"));
    assertTrue(tool.inputSchema().toString().contains("Python 3.11.2, Node.js 20.20.2"));
  }

  @Test
  void theDescriptionNamesThePackagesABackendOffers() {
    SandboxFacts local =
        new SandboxFacts(
            "Python 3.11.2",
            SandboxFacts.SERVICE_LIMITS,
            SandboxFacts.GVISOR,
            SandboxFacts.installedPackages("Python: numpy 1.24, matplotlib 3.6"),
            SandboxFacts.TIME_LIMIT_SECONDS);

    String description = new ExecuteCodeTool(cinch(), api.runners().timers(), local).description();

    assertTrue(
        description.contains(
            "- Python 3.11.2, standard library, plus what this machine has installed under /usr"
                + " (Python: numpy 1.24, matplotlib 3.6); no way to install more.\n"),
        description);
    assertFalse(description.contains("standard library only"), description);
  }

  @Test
  void apiFailureIsAnErrorResultWithItsMessage() {
    api.answer(aResponse().withStatus(402).withBody("{\"error\":\"no credits\"}"));

    CallToolResult r = call(cinch(), Map.of("code", "print(1)"));

    assertTrue(r.isError());
    assertTrue(text(r).contains("Do NOT retry"), text(r));
    assertEquals(null, r.structuredContent());
  }

  @Test
  void misconfiguredServerAnswersEveryCallWithTheProblem() {
    UnavailableRunner runner =
        new UnavailableRunner(
            "cinch",
            new RunFailure(
                RunFailure.Reason.NOT_CONFIGURED,
                "This server is not configured to run code: CINCH_API_KEY is not set."));

    CallToolResult r = call(runner, Map.of("code", "print(1)"));

    assertTrue(r.isError());
    assertTrue(text(r).contains("CINCH_API_KEY is not set"), text(r));
  }

  @Test
  void definitionCarriesTheSchemasAndHonestHints() {
    Tool tool = tool(cinch()).definition();

    assertEquals("execute_code", tool.name());
    assertEquals(ToolSchemas.output(), tool.outputSchema());
    assertTrue(tool.annotations().readOnlyHint());
    assertFalse(tool.annotations().destructiveHint());
    assertFalse(tool.annotations().idempotentHint());
    assertFalse(tool.annotations().openWorldHint());
    assertTrue(tool.description().contains("Python 3.12 and Node 20"));
    assertTrue(tool.description().contains("20,000 characters"));
    assertTrue(tool.description().contains("- " + SandboxFacts.SERVICE_LIMITS + ".\n"));
    assertTrue(tool.description().contains("/tmp (64 MB)"));
  }
}
