package dev.cinchmcp.backend.cinch;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.config.Version;
import dev.cinchmcp.testkit.FakeCinchApi;
import dev.cinchmcp.testkit.Runs;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What goes on the wire: one POST to {base}/run with the agreed headers and JSON body. */
class CinchApiRunnerRequestTest {

  private static final String OK_RUN =
      "{\"stdout\":\"\",\"stderr\":\"\",\"exitCode\":0,\"timedOut\":false,\"durationMs\":1}";
  private static final ObjectMapper JSON = new ObjectMapper();

  @RegisterExtension static final FakeCinchApi api = new FakeCinchApi();

  @BeforeEach
  void reset() {
    api.wireMock().stubFor(post(anyUrl()).willReturn(aResponse().withStatus(200).withBody(OK_RUN)));
  }

  @Test
  void postsToRunWithBearerKeyJsonHeadersAndUserAgent() {
    Runs.runOk(api.runner(Duration.ofSeconds(5)), new Program("print(2+2)", Language.PYTHON));

    api.wireMock().verify(1, anyRequestedFor(anyUrl()));
    api.wireMock()
        .verify(
            postRequestedFor(urlEqualTo("/run"))
                .withHeader("Authorization", equalTo("Bearer " + FakeCinchApi.KEY))
                .withHeader("Content-Type", equalTo("application/json"))
                .withHeader("Accept", equalTo("application/json"))
                .withHeader(
                    "User-Agent", matching("cinch-mcp/" + Pattern.quote(Version.get()) + " .*"))
                .withRequestBody(equalToJson("{\"code\":\"print(2+2)\",\"language\":\"python\"}")));
  }

  @Test
  void userAgentCarriesTheBuiltVersion() {
    Runs.runOk(api.runner(Duration.ofSeconds(5)), Runs.python("print(1)"));

    String userAgent =
        api.wireMock().findAll(postRequestedFor(urlEqualTo("/run"))).get(0).getHeader("User-Agent");
    assertTrue(userAgent.startsWith("cinch-mcp/"), userAgent);
    // The build filters the version into the jar; an unfiltered or missing resource would show
    // here.
    assertFalse(
        Version.get().isBlank() || Version.get().equals("dev") || Version.get().contains("${"),
        Version.get());
    assertTrue(userAgent.contains(Version.get()), userAgent);
  }

  @Test
  void javascriptIsSentAsJavascript() {
    Runs.runOk(
        api.runner(Duration.ofSeconds(5)), new Program("console.log(1)", Language.JAVASCRIPT));

    api.wireMock()
        .verify(
            postRequestedFor(urlEqualTo("/run"))
                .withRequestBody(
                    equalToJson("{\"code\":\"console.log(1)\",\"language\":\"javascript\"}")));
  }

  @ParameterizedTest(name = "[{index}]")
  @ValueSource(
      strings = {
        "print(\"hello \\\"world\\\"\")",
        "import sys\r\nfor i in range(3):\n\tprint(i)\n",
        "print('héllo wörld — ünïcödé 日本語 😀 \\u0000 done')",
        "s = '\u0001\u001f\u007f'\nprint(len(s))",
        "print('</script><script>alert(1)</script>')",
        "print('\\\\ back\\\\slash \\\\n not a newline')",
        "x = '\u2028\u2029'"
      })
  void codeIsSentExactlyWhateverItHolds(String code) throws Exception {
    Runs.runOk(api.runner(Duration.ofSeconds(5)), Runs.python(code));

    List<LoggedRequest> requests = api.wireMock().findAll(postRequestedFor(urlEqualTo("/run")));
    assertEquals(1, requests.size());
    JsonNode body = JSON.readTree(requests.get(0).getBody());
    assertEquals(code, body.get("code").asText());
    assertEquals("python", body.get("language").asText());
    assertEquals(2, body.size(), "only code and language: " + body);
    // And it is UTF-8 on the wire.
    assertEquals(
        JSON.writeValueAsString(body),
        JSON.writeValueAsString(
            JSON.readTree(new String(requests.get(0).getBody(), StandardCharsets.UTF_8))));
  }

  @Test
  void runUnderABasePathPostsToThatPath() {
    URI runUri = URI.create(api.base() + "/v1/run");

    Runs.runOk(api.runner(runUri, Duration.ofSeconds(5)), Runs.python("print(1)"));

    api.wireMock().verify(1, postRequestedFor(urlPathEqualTo("/v1/run")));
  }

  @Test
  void requestBodyEscapesWhatJsonRequires() {
    String json = CinchApiRunner.body(new Program("a\"b\\c\nd\u0001", Language.PYTHON));

    assertEquals("{\"code\":\"a\\\"b\\\\c\\nd\\u0001\",\"language\":\"python\"}", json);
  }
}
