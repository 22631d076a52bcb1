package dev.cinchmcp.backend.docker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.docker.Engine.ApiVersion;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ApiVersionTest {

  private static ApiVersion v(String text) {
    return ApiVersion.parse(text).orElseThrow();
  }

  @Test
  void debiansDockerdAndPodmanSpeak141() {
    assertEquals(Optional.of(v("1.41")), ApiVersion.negotiate(v("1.41"), v("1.12")));
    assertEquals(Optional.of(v("1.41")), ApiVersion.negotiate(v("1.41"), null));
  }

  @Test
  void currentDockerDesktopGetsTheNewestThisClientSpeaks() {
    // Docker Engine 29: API 1.52, refuses clients below 1.44.
    assertEquals(Optional.of(v("1.47")), ApiVersion.negotiate(v("1.52"), v("1.44")));
  }

  @Test
  void anEngineWhoseMinimumIsAboveOursIsSpokenToAtItsMinimum() {
    assertEquals(Optional.of(v("1.50")), ApiVersion.negotiate(v("1.55"), v("1.50")));
  }

  @Test
  void anEngineOlderThan141IsRefused() {
    assertTrue(ApiVersion.negotiate(v("1.40"), v("1.12")).isEmpty());
  }

  @Test
  void versionsCompareAsNumbersNotText() {
    assertEquals(Optional.of(v("1.47")), ApiVersion.negotiate(v("1.50"), v("1.9")));
    assertEquals("1.41", v("1.41").toString());
    assertTrue(ApiVersion.parse("latest").isEmpty());
    assertTrue(ApiVersion.parse(null).isEmpty());
  }
}
