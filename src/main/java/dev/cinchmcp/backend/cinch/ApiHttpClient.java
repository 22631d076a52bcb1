package dev.cinchmcp.backend.cinch;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The HTTP client a {@link CinchApiRunner} expects: how it is made, and how it is stopped. */
final class ApiHttpClient {

  private static final Logger log = LoggerFactory.getLogger(CinchApiRunner.class);

  private ApiHttpClient() {}

  /**
   * No redirects; on plain http, HTTP/1.1 (no h2c upgrade dance) and no TLS set-up at all ({@link
   * PlainHttp}); its own tasks run where they arise ({@link #ITS_OWN_THREAD}).
   *
   * @param tls the TLS context for https ({@code null}: the JDK's default)
   */
  static HttpClient create(URI base, Duration connectTimeout, SSLContext tls) {
    boolean plain = "http".equalsIgnoreCase(base.getScheme());
    HttpClient.Builder builder =
        HttpClient.newBuilder()
            .followRedirects(HttpClient.Redirect.NEVER)
            .version(plain ? HttpClient.Version.HTTP_1_1 : HttpClient.Version.HTTP_2)
            .connectTimeout(connectTimeout)
            .executor(ITS_OWN_THREAD);
    if (plain) {
      builder.sslContext(PlainHttp.noTlsContext()).sslParameters(PlainHttp.noTlsParameters());
    } else if (tls != null) {
      builder.sslContext(tls);
    }
    return builder.build();
  }

  /**
   * The HTTP client's executor: a task runs on the thread that hands it over, mostly the client's
   * selector thread, rather than being passed to a pool thread first. The client's own tasks never
   * block (it must work with a one-thread executor too), and the runner never blocks on it: the
   * answer's body is read on the thread the client completes a call's future on (its common pool),
   * or on the runner's {@code readers}. One thread hop less for every answer: side by side in one
   * benchmark run (bench/run.mjs, 6 rounds), round trip p50 0.90x the peer against 1.00x with a
   * pool, p99 0.94x against 1.13x. {@code CinchApiHttpsTest} runs it over TLS and HTTP/2.
   */
  static final Executor ITS_OWN_THREAD = Runnable::run;

  /**
   * Stops the client. Its selector thread otherwise sits in native code, and the JVM waits up to
   * 300 ms for such threads when it exits. Java 21 and later close the client; before that the
   * selector thread is interrupted, which ends its loop just as well.
   */
  static void close(HttpClient http) {
    if (http instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        log.debug("Closing the HTTP client failed: {}", e.toString());
      }
      return;
    }
    interruptSelectors();
  }

  /** Ends the selector threads of every HTTP client in this JVM without waiting for anything. */
  static void interruptSelectors() {
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      String name = thread.getName();
      if (name.startsWith("HttpClient-") && name.endsWith("-SelectorManager")) {
        thread.interrupt();
      }
    }
  }
}
