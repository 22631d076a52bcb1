package dev.cinchmcp.config;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The project's version, stamped into the jar by the build. */
public final class Version {

  private static final String VERSION = load();

  private Version() {}

  public static String get() {
    return VERSION;
  }

  public static String userAgent() {
    return "cinch-mcp/" + VERSION + " (Java " + Runtime.version().feature() + ")";
  }

  private static String load() {
    Properties p = new Properties();
    try (InputStream in = Version.class.getResourceAsStream("/cinch-mcp-version.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      // unreadable: "dev"
    }
    return p.getProperty("version", "dev");
  }
}
