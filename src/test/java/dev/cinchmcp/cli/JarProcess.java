package dev.cinchmcp.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a built jar as a real process: feeds it stdin, waits (bounded) and keeps what it printed.
 */
record JarProcess(int exitCode, String out, String err) {

  static Path builtJar() {
    String jar = System.getProperty("cinch.jar");
    if (jar == null || !Files.isRegularFile(Path.of(jar))) {
      throw new IllegalStateException(
          "system property cinch.jar must name the built jar (failsafe sets it), was " + jar);
    }
    return Path.of(jar);
  }

  static JarProcess run(Path jar, Map<String, String> env, String stdin, String... args)
      throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                jar.toString()));
    command.addAll(List.of(args));
    Path dir = Files.createTempDirectory("cinch-jar-it");
    Path out = dir.resolve("out");
    Path err = dir.resolve("err");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
    builder
        .environment()
        .keySet()
        .removeIf(name -> name.startsWith("CINCH_")); // only what the test says
    builder.environment().putAll(env);
    Process process = builder.start();
    try (OutputStream in = process.getOutputStream()) {
      in.write(stdin.getBytes(StandardCharsets.UTF_8));
    }
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("the jar did not exit within 60 s: " + command);
    }
    JarProcess result =
        new JarProcess(process.exitValue(), Files.readString(out), Files.readString(err));
    Files.delete(out);
    Files.delete(err);
    Files.delete(dir);
    return result;
  }

  boolean shows(String secret) {
    return out.contains(secret) || err.contains(secret);
  }
}
