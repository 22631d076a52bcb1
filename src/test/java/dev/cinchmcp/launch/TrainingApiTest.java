package dev.cinchmcp.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
}
