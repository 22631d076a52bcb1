package dev.cinchmcp.cli;

import dev.cinchmcp.transport.FirstLineHandOver;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** One in-process run of the command line, with what it wrote on stdout and stderr. */
record CliRun(int exitCode, String out, String err) {

  static final String KEY = "cinch_live_TESTKEY_never_shown_5f3a9c";

  static CliRun of(Map<String, String> env, String... args) {
    return withInput("", env, args);
  }

  static CliRun withInput(String stdin, Map<String, String> env, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    InputStream in = new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8));
    int code =
        new Cli()
            .run(
                args,
                in,
                out,
                new PrintStream(err, true, StandardCharsets.UTF_8),
                env,
                FirstLineHandOver.NONE);
    return new CliRun(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** Whether the key shows anywhere a person or a log could see it. */
  boolean showsKey() {
    return out.contains(KEY) || err.contains(KEY);
  }

  static String fixture(String name) {
    try (InputStream in = CliRun.class.getResourceAsStream("/cli/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
