package dev.cinchmcp.backend.cinch;

import java.security.KeyManagementException;
import java.security.SecureRandom;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * The TLS set-up of an HTTP client that only ever speaks plain http (a {@code CINCH_BASE_URL} of
 * {@code http://}, such as a local gateway or a test's fake API): none. Java's HTTP client loads
 * the JDK's default TLS context when it is built, whether or not it will use it, and in a fresh JVM
 * that costs 150-200 ms (the trust store is read and parsed), which the first call would wait for.
 * This context refuses to make a TLS connection, which such a client never asks for: the base URL's
 * scheme is fixed when the server starts, and redirects are never followed.
 */
final class PlainHttp {

  private PlainHttp() {}

  /** A context that cannot make TLS connections. */
  static SSLContext noTlsContext() {
    return new SSLContext(new NoTls(), null, "none") {};
  }

  /** Parameters for {@link #noTlsContext}: the client would otherwise ask the context for them. */
  static SSLParameters noTlsParameters() {
    return new SSLParameters();
  }

  private static final class NoTls extends SSLContextSpi {

    private static UnsupportedOperationException refused() {
      return new UnsupportedOperationException(
          "TLS is not set up: CINCH_BASE_URL is a plain http URL");
    }

    @Override
    protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom sr)
        throws KeyManagementException {
      throw refused();
    }

    @Override
    protected SSLSocketFactory engineGetSocketFactory() {
      throw refused();
    }

    @Override
    protected SSLServerSocketFactory engineGetServerSocketFactory() {
      throw refused();
    }

    @Override
    protected SSLEngine engineCreateSSLEngine() {
      throw refused();
    }

    @Override
    protected SSLEngine engineCreateSSLEngine(String host, int port) {
      throw refused();
    }

    @Override
    protected SSLSessionContext engineGetServerSessionContext() {
      throw refused();
    }

    @Override
    protected SSLSessionContext engineGetClientSessionContext() {
      throw refused();
    }
  }
}
