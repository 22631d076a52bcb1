package dev.cinchmcp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LogLevelTest {

  // The test JVM's loggers exist already, so these properties change nothing but themselves.
  @AfterEach
  void forgetTheProperties() {
    System.clearProperty(Cli.DEFAULT_LOG_PROPERTY);
    System.clearProperty(Cli.SDK_LOG_PROPERTY);
  }

  @Test
  void acceptsEveryLevelInAnyCase() {
    assertEquals("", apply("DEBUG"));
    assertEquals("debug", System.getProperty(Cli.DEFAULT_LOG_PROPERTY));
    assertEquals("", apply(" Warn "));
    assertEquals("warn", System.getProperty(Cli.DEFAULT_LOG_PROPERTY));
    for (String level : Cli.LOG_LEVELS) {
      assertEquals("", apply(level));
      assertEquals(level, System.getProperty(Cli.DEFAULT_LOG_PROPERTY));
    }
  }

  @Test
  void rejectsWhatIsNotALevel() {
    for (String bad : List.of("verbose", "warning")) {
      assertTrue(apply(bad).contains("using info"), bad);
      assertNull(System.getProperty(Cli.DEFAULT_LOG_PROPERTY), bad);
    }
    assertEquals("", apply(""), "blank: the default, nothing said");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Cli.applyLogLevel(Map.of(), new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals("", err.toString(StandardCharsets.UTF_8), "unset: the default, nothing said");
    assertNull(System.getProperty(Cli.DEFAULT_LOG_PROPERTY));
  }

  @Test
  void aValidLevelBecomesTheDefaultLogLevel() {
    String err = apply("trace");

    assertEquals("trace", System.getProperty(Cli.DEFAULT_LOG_PROPERTY));
    assertNull(System.getProperty(Cli.SDK_LOG_PROPERTY), "a louder level leaves the SDK at warn");
    assertEquals("", err);
  }

  @Test
  void offQuietsTheSdkToo() {
    apply("OFF");

    assertEquals("off", System.getProperty(Cli.DEFAULT_LOG_PROPERTY));
    assertEquals("off", System.getProperty(Cli.SDK_LOG_PROPERTY));
  }

  @Test
  void anInvalidLevelIsAWarningAndTheDefaultStays() {
    String err = apply("loud");

    assertNull(System.getProperty(Cli.DEFAULT_LOG_PROPERTY));
    assertTrue(
        err.contains("CINCH_LOG_LEVEL") && err.contains("\"loud\"") && err.contains("using info"),
        err);
  }

  private static String apply(String value) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Cli.applyLogLevel(
        Map.of(Cli.LOG_LEVEL, value), new PrintStream(err, true, StandardCharsets.UTF_8));
    return err.toString(StandardCharsets.UTF_8);
  }
}
