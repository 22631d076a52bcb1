package dev.cinchmcp.backend.cinch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;

/** A client for a plain http base URL has no TLS set up; one for https has the JDK's default. */
class PlainHttpTest {

  @Test
  void aPlainHttpClientHasNoTlsContext() {
    HttpClient client =
        CinchApiRunner.newHttpClient(URI.create("http://127.0.0.1:9"), Duration.ofSeconds(1));
    assertEquals("none", client.sslContext().getProtocol());
    assertEquals(HttpClient.Version.HTTP_1_1, client.version());
    // Were it ever asked for TLS, it says why there is none, rather than connect some other way.
    Exception e =
        assertThrows(
            Exception.class,
            () ->
                client.send(
                    HttpRequest.newBuilder(URI.create("https://127.0.0.1:9/run")).build(),
                    HttpResponse.BodyHandlers.discarding()));
    assertTrue(messages(e).contains("CINCH_BASE_URL is a plain http URL"), "got: " + messages(e));
  }

  @Test
  void anHttpsClientHasTheDefaultTlsContext() throws Exception {
    HttpClient client =
        CinchApiRunner.newHttpClient(URI.create("https://api.cinch.codes"), Duration.ofSeconds(1));
    assertSame(SSLContext.getDefault(), client.sslContext());
  }

  private static String messages(Throwable e) {
    StringBuilder all = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      all.append(t).append(" | ");
    }
    return all.toString();
  }
}
