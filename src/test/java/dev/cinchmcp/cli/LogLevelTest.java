package dev.cinchmcp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LogLevelTest {

  // The test JVM's loggers exist already, so these properties change nothing but themselves.
  @AfterEach
  void forgetTheProperties() {
    System.clearProperty(LogLevel.DEFAULT_LEVEL_PROPERTY);
    System.clearProperty(LogLevel.SDK_LEVEL_PROPERTY);
  }

  @Test
  void acceptsEveryLevelInAnyCase() {
    assertEquals(Optional.of("debug"), LogLevel.parse("DEBUG"));
    assertEquals(Optional.of("warn"), LogLevel.parse(" Warn "));
    for (String level : LogLevel.LEVELS) {
      assertEquals(Optional.of(level), LogLevel.parse(level));
    }
  }

  @Test
  void rejectsWhatIsNotALevel() {
    assertEquals(Optional.empty(), LogLevel.parse("verbose"));
    assertEquals(Optional.empty(), LogLevel.parse("warning"));
    assertEquals(Optional.empty(), LogLevel.parse(""));
    assertEquals(Optional.empty(), LogLevel.parse(null));
  }

  @Test
  void aValidLevelBecomesTheDefaultLogLevel() {
    String err = apply("trace");

    assertEquals("trace", System.getProperty(LogLevel.DEFAULT_LEVEL_PROPERTY));
    assertNull(
        System.getProperty(LogLevel.SDK_LEVEL_PROPERTY), "a louder level leaves the SDK at warn");
    assertEquals("", err);
  }

  @Test
  void offQuietsTheSdkToo() {
    apply("OFF");

    assertEquals("off", System.getProperty(LogLevel.DEFAULT_LEVEL_PROPERTY));
    assertEquals("off", System.getProperty(LogLevel.SDK_LEVEL_PROPERTY));
  }

  @Test
  void anInvalidLevelIsAWarningAndTheDefaultStays() {
    String err = apply("loud");

    assertNull(System.getProperty(LogLevel.DEFAULT_LEVEL_PROPERTY));
    assertTrue(
        err.contains("CINCH_LOG_LEVEL") && err.contains("\"loud\"") && err.contains("using info"),
        err);
  }

  private static String apply(String value) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    LogLevel.apply(
        Map.of(LogLevel.VARIABLE, value), new PrintStream(err, true, StandardCharsets.UTF_8));
    return err.toString(StandardCharsets.UTF_8);
  }
}
