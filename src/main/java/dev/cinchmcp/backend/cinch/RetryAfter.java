package dev.cinchmcp.backend.cinch;

import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/** The {@code Retry-After} header: a number of seconds, or an HTTP date. */
final class RetryAfter {

  /** Longer than any deadline; keeps Duration arithmetic far from overflow. */
  private static final long MAX_SECONDS = 999_999_999_999_999L;

  private RetryAfter() {}

  static Optional<Duration> parse(String header, Clock clock) {
    if (header == null || header.isBlank()) {
      return Optional.empty();
    }
    String value = header.strip();
    if (value.matches("\\d+")) {
      // Any number of digits: a huge wait is still a wait (longer than any deadline), not "none".
      return Optional.of(
          Duration.ofSeconds(value.length() > 15 ? MAX_SECONDS : Long.parseLong(value)));
    }
    try {
      ZonedDateTime when = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME);
      Duration wait = Duration.between(clock.instant(), when.toInstant());
      return Optional.of(wait.isNegative() ? Duration.ZERO : wait);
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  /** "about 30 s", for a message that tells the model how long to wait. */
  static String describe(Duration wait) {
    long seconds = Math.max(1, (wait.toMillis() + 999) / 1000);
    return "about " + seconds + " s";
  }
}
