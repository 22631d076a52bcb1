package dev.cinchmcp.testkit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.client.ScenarioMappingBuilder;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.matching.RequestPatternBuilder;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.cinchmcp.backend.cinch.CinchApiRunner;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The tests' one fake Cinch API: a real WireMock server on a loopback port, as a JUnit 5 extension.
 *
 * <pre>{@code
 * @RegisterExtension
 * final FakeCinchApi api = new FakeCinchApi().answering(FakeCinchApi.OK_RUN).slowWhen("slow1500", 1500);
 * }</pre>
 *
 * <p>In a static field it is one server for the class, in an instance field one for each test;
 * either way each test starts with exactly the stubs its options name and no requests recorded.
 * Behaviour WireMock cannot fake (a server that hangs, or drips its answer) is in {@link
 * HangingApi} and {@link StalledApi}; one that runs the posted code is {@link CodeRunningApi}.
 */
public final class FakeCinchApi
    implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

  /** A plain successful run, what most tests need the API to say. */
  public static final String OK_RUN =
      "{\"stdout\":\"42\\n\",\"stderr\":\"\",\"exitCode\":0,\"timedOut\":false,\"durationMs\":1}";

  /** The API key the kit's runners send. */
  public static final String KEY = CinchRunners.KEY;

  private final List<Consumer<WireMockServer>> stubs = new ArrayList<>();
  private CinchRunners runners;
  private WireMockConfiguration options =
      WireMockConfiguration.options().dynamicPort().bindAddress("127.0.0.1");
  private WireMockServer server;
  private boolean perClass;

  /** Every POST to /run is answered 200 with this JSON body. */
  public FakeCinchApi answering(String body) {
    return stub(api -> api.stubFor(post(urlEqualTo("/run")).willReturn(json(body))));
  }

  /**
   * A POST to /run whose body contains {@code marker} (a test's program says "slow1500") is
   * answered as {@code body}, after {@code millis}.
   */
  public FakeCinchApi slowWhen(String marker, int millis, String body) {
    return stub(
        api ->
            api.stubFor(
                post(urlEqualTo("/run"))
                    .withRequestBody(containing(marker))
                    .willReturn(json(body).withFixedDelay(millis))));
  }

  /** A POST to /run whose body contains {@code marker} gets this answer. */
  public FakeCinchApi answeringWhen(String marker, ResponseDefinitionBuilder answer) {
    return stub(
        api ->
            api.stubFor(
                post(urlEqualTo("/run")).withRequestBody(containing(marker)).willReturn(answer)));
  }

  /** Any stubs of the test's own, set again before each test. */
  public FakeCinchApi stub(Consumer<WireMockServer> stub) {
    stubs.add(stub);
    return this;
  }

  /** Serves this many requests at once (Jetty's threads; WireMock's default is 10ish). */
  public FakeCinchApi threads(int threads) {
    options = options.containerThreads(threads).jettyAcceptors(2);
    return this;
  }

  /** An HTTPS port too: WireMock's self-signed certificate, Jetty with ALPN (HTTP/2). */
  public FakeCinchApi https() {
    options = options.dynamicHttpsPort();
    return this;
  }

  /** A JSON answer with this body, status 200. */
  public static ResponseDefinitionBuilder json(String body) {
    return aResponse().withHeader("Content-Type", "application/json").withBody(body);
  }

  /** Starts the server now, outside JUnit's lifecycle; {@link #stop} stops it. */
  public FakeCinchApi start() {
    if (server == null) {
      server = new WireMockServer(options);
      server.start();
      reset();
    }
    return this;
  }

  /** Forgets every request and stub, then sets the options' stubs again. */
  public void reset() {
    server.resetAll();
    stubs.forEach(stub -> stub.accept(server));
  }

  public void stop() {
    if (server != null) {
      server.stop();
      server = null;
    }
    if (runners != null) {
      runners.close();
      runners = null;
    }
  }

  /** A real Cinch runner sending to this API's /run. */
  public CinchApiRunner runner(Duration timeout) {
    return runners().runner(runUri(), timeout);
  }

  /** A real Cinch runner sending to any URI, with this API's thread pools. */
  public CinchApiRunner runner(URI runUri, Duration timeout) {
    return runners().runner(runUri, timeout);
  }

  public CinchApiRunner runner(URI runUri, Duration timeout, String key) {
    return runners().runner(runUri, timeout, key);
  }

  /** The thread pools and factory behind {@link #runner}. */
  public CinchRunners runners() {
    if (runners == null) {
      runners = new CinchRunners();
    }
    return runners;
  }

  public WireMockServer wireMock() {
    return server;
  }

  public int port() {
    return server.port();
  }

  /** http://127.0.0.1:PORT, as a URI. */
  public URI base() {
    return URI.create(baseUrl());
  }

  /** http://127.0.0.1:PORT, what CINCH_BASE_URL is set to. */
  public String baseUrl() {
    return "http://127.0.0.1:" + server.port();
  }

  /** The run endpoint. */
  public URI runUri() {
    return URI.create(baseUrl() + "/run");
  }

  /** The run endpoint on the HTTPS port (of {@link #https}). */
  public URI httpsRunUri() {
    return URI.create("https://127.0.0.1:" + server.httpsPort() + "/run");
  }

  /** For this test only, every POST to /run gets this answer (over the options' stubs). */
  public StubMapping answer(ResponseDefinitionBuilder answer) {
    return server.stubFor(post(urlEqualTo("/run")).willReturn(answer));
  }

  /**
   * For this test only, the POSTs to /run whose body contains {@code marker} ({@code null}: every
   * POST) get these answers in turn, the last one from then on: a 429 then a 200, say.
   */
  public void answerInTurn(String marker, ResponseDefinitionBuilder... answers) {
    String scenario = "in turn " + marker;
    for (int i = 0; i < answers.length; i++) {
      MappingBuilder request = post(urlEqualTo("/run"));
      if (marker != null) {
        request = request.withRequestBody(containing(marker));
      }
      ScenarioMappingBuilder stub =
          request
              .inScenario(scenario)
              .whenScenarioStateIs(i == 0 ? Scenario.STARTED : "answer " + i)
              .willReturn(answers[i]);
      server.stubFor(i + 1 < answers.length ? stub.willSetStateTo("answer " + (i + 1)) : stub);
    }
  }

  /** Adds a stub for this test only (the options' stubs come back before the next). */
  public StubMapping stubFor(MappingBuilder stub) {
    return server.stubFor(stub);
  }

  public void verify(RequestPatternBuilder request) {
    server.verify(request);
  }

  public void verify(int count, RequestPatternBuilder request) {
    server.verify(count, request);
  }

  public List<LoggedRequest> findAll(RequestPatternBuilder request) {
    return server.findAll(request);
  }

  public List<ServeEvent> getAllServeEvents() {
    return server.getAllServeEvents();
  }

  /** How many requests arrived since the test started. */
  public int requests() {
    return server.getAllServeEvents().size();
  }

  /** The bodies POSTed to /run, in order. */
  public List<String> bodies() {
    return server
        .findAll(
            com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor(urlEqualTo("/run")))
        .stream()
        .map(LoggedRequest::getBody)
        .map(body -> new String(body, StandardCharsets.UTF_8))
        .toList();
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    perClass = true;
    start();
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    if (server == null) {
      start();
    } else {
      reset();
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    if (!perClass) {
      stop();
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    stop();
  }
}
