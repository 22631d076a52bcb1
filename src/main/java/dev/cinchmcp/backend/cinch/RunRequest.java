package dev.cinchmcp.backend.cinch;

import dev.cinchmcp.backend.Program;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;

/**
 * The request that asks the API to run a program: {@code POST {base}/run} with the key as a bearer
 * token and the program as JSON ({@link RequestBody}).
 *
 * <p>No per-request timeout: the call's own deadline ({@link ApiCall}) aborts the exchange, and a
 * second timer per request cost the HTTP client's selector thread a wake-up every call.
 */
final class RunRequest {

  private final URI runUri;
  private final String bearer;
  private final String userAgent;

  /**
   * @param runUri the endpoint, {@code {base}/run}
   * @param apiKey the key; kept only in the Authorization header
   */
  RunRequest(URI runUri, String apiKey, String userAgent) {
    this.runUri = runUri;
    this.bearer = "Bearer " + apiKey;
    this.userAgent = userAgent;
  }

  /** The body, made once per call: every attempt of the call sends the same. */
  static String body(Program program) {
    return RequestBody.json(program);
  }

  HttpRequest of(String body) {
    return HttpRequest.newBuilder(runUri)
        .header("Authorization", bearer)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json")
        .header("User-Agent", userAgent)
        .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
        .build();
  }

  /** "the Cinch API at {base}/", for the messages about a failed exchange. */
  String where() {
    return "the Cinch API at " + runUri.resolve("/");
  }
}
