package dev.cinchmcp.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The training run's API answers every run, on one kept-alive connection, on loopback only. (That
 * it stops at close is not checked: a freed port can be taken at once by another test's server.)
 */
class TrainingApiTest {

  @Test
  void answersEveryRunUntilClosed() throws Exception {
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    URI run;
    try (TrainingApi api = TrainingApi.start()) {
      assertTrue(api.baseUrl().startsWith("http://127.0.0.1:"), api.baseUrl());
      run = URI.create(api.baseUrl() + "/run");
      for (int i = 0; i < 3; i++) {
        HttpResponse<String> answer =
            client.send(
                HttpRequest.newBuilder(run)
                    .POST(HttpRequest.BodyPublishers.ofString("{\"code\":\"print(" + i + ")\"}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode());
        assertTrue(answer.body().contains("\"exitCode\":0"), answer.body());
      }
    }
  }

  @Test
  void aClientThatIsNotTheTrainingRunIsHungUpOn() throws Exception {
    try (TrainingApi api = TrainingApi.start()) {
      URI base = URI.create(api.baseUrl());
      // Any local user can connect while a training runs: a head line of 9,000 characters, or a
      // body of a gigabyte announced, gets the connection closed, not memory.
      for (String junk :
          List.of(
              "POST /run HTTP/1.1\r\nX: " + "a".repeat(9_000) + "\r\n\r\n",
              "POST /run HTTP/1.1\r\nContent-Length: 1073741824\r\n\r\n")) {
        try (java.net.Socket s = new java.net.Socket(base.getHost(), base.getPort())) {
          s.getOutputStream().write(junk.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
          s.setSoTimeout(5_000);
          int first;
          try {
            first = s.getInputStream().read();
          } catch (java.net.SocketException reset) {
            first = -1; // closed with our junk unread: a reset, which is hanging up too
          }
          assertEquals(-1, first, "hung up on");
        }
      }
      HttpResponse<String> answer =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(base.resolve("/run"))
                      .POST(HttpRequest.BodyPublishers.ofString("{}"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertEquals(200, answer.statusCode(), "and it still answers the training run");
    }
  }
}
