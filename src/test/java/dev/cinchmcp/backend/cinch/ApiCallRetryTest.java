package dev.cinchmcp.backend.cinch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class ApiCallRetryTest {

  private static final Clock NOW =
      Clock.fixed(Instant.parse("2026-03-01T12:00:00Z"), ZoneOffset.UTC);

  @Test
  void secondsAreSeconds() {
    assertEquals(Optional.of(Duration.ofSeconds(0)), ApiCall.retryAfter("0", NOW));
    assertEquals(Optional.of(Duration.ofSeconds(7)), ApiCall.retryAfter(" 7 ", NOW));
  }

  @Test
  void httpDateIsTheTimeUntilThen() {
    assertEquals(
        Optional.of(Duration.ofSeconds(30)),
        ApiCall.retryAfter("Sun, 01 Mar 2026 12:00:30 GMT", NOW));
  }

  @Test
  void httpDateInThePastMeansNoWait() {
    assertEquals(
        Optional.of(Duration.ZERO), ApiCall.retryAfter("Sun, 01 Mar 2026 11:00:00 GMT", NOW));
  }

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(strings = {" ", "soon", "-1", "1.5", "2026-03-01T12:00:30Z"})
  void anythingElseIsNoHint(String header) {
    assertTrue(ApiCall.retryAfter(header, NOW).isEmpty(), header);
  }

  @ParameterizedTest
  @ValueSource(strings = {"99999999999", "999999999999999999999999"})
  void aHugeNumberIsAHugeWaitNotNone(String header) {
    // Read as "no hint" it would be retried after a second; it is a wait past any deadline.
    assertTrue(ApiCall.retryAfter(header, NOW).orElseThrow().toDays() > 365, header);
  }

  @Test
  void describeRoundsUpToWholeSecondsAndSaysAtLeastOne() {
    assertEquals("about 1 s", ApiCall.describe(Duration.ZERO));
    assertEquals("about 2 s", ApiCall.describe(Duration.ofMillis(1_001)));
    assertEquals("about 60 s", ApiCall.describe(Duration.ofSeconds(60)));
  }
}
