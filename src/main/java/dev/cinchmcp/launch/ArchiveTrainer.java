package dev.cinchmcp.launch;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Makes a {@link SelfMadeArchive} ({@code java -cp JAR ...ArchiveTrainer JAR}, exit status 0 if it
 * did): under a lock, runs the server once on the training session, and renames the archive into
 * place. Also removes our archives (15-30 MB each) unused for {@link #UNUSED_FOR_DAYS} days, never
 * a link.
 */
public final class ArchiveTrainer {

  /** Longest a training run may take; it normally takes 2-5 s. */
  private static final long TRAINING_LIMIT_SECONDS = 120;

  static final int UNUSED_FOR_DAYS = 30;

  /** An archive ({@code 17-0123456789abcdef.jsa}), or its lock, log or unfinished file. */
  private static final Pattern OURS =
      Pattern.compile(
          "\\d+-[0-9a-f]{16}\\.(jsa|aot)(\\.lock|\\.log|\\.[0-9a-f-]{36}\\.tmp(\\.config)?)?");

  private ArchiveTrainer() {}

  public static void main(String[] args) {
    System.exit(args.length == 1 && train(Path.of(args[0]), System.getenv()) ? 0 : 1);
  }

  static boolean train(Path jar, Map<String, String> env) {
    Optional<SelfMadeArchive> found = SelfMadeArchive.of(jar, env);
    if (found.isEmpty()) {
      return false;
    }
    Path file = found.get().file();
    try (FileChannel lockChannel =
            FileChannel.open(
                sibling(file, ".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = lockChannel.tryLock()) {
      if (lock == null) {
        return false; // another first start is making it right now
      }
      if (found.get().ready()) {
        return true;
      }
      Path temporary = sibling(file, "." + UUID.randomUUID() + ".tmp");
      try {
        if (!run(found.get(), temporary, env) || !Files.isRegularFile(temporary, NOFOLLOW_LINKS)) {
          return false;
        }
        try {
          Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("r--------"));
        } catch (UnsupportedOperationException notPosix) {
          temporary.toFile().setReadOnly();
        }
        Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
        removeUnusedSince(
            file.getParent(), file, Instant.now().minus(Duration.ofDays(UNUSED_FOR_DAYS)));
        return found.get().ready();
      } finally {
        Files.deleteIfExists(temporary);
        Files.deleteIfExists(sibling(temporary, ".config"));
      }
    } catch (IOException | RuntimeException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static Path sibling(Path file, String suffix) {
    return file.resolveSibling(file.getFileName() + suffix);
  }

  private static boolean run(SelfMadeArchive archive, Path temporary, Map<String, String> env)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(SelfMadeArchive.javaLauncher());
    command.addAll(LaunchOptions.fast());
    command.add(archive.makeOption(temporary));
    command.add("-D" + TrainingApi.TRAINING + "=true");
    command.addAll(List.of("-jar", archive.jar().toString()));
    ProcessBuilder pb = new ProcessBuilder(command);
    // Never the user's key. The run's calls go to its TrainingApi (else to the discard port).
    pb.environment().clear();
    pb.environment()
        .putAll(
            Map.of(
                "PATH", env.getOrDefault("PATH", ""),
                "CINCH_API_KEY", "training-key",
                "CINCH_BASE_URL", "http://127.0.0.1:9",
                "CINCH_TIMEOUT_MS", "2000",
                "CINCH_BACKEND", "cinch"));
    pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    pb.redirectError(sibling(archive.file(), ".log").toFile());
    Process training = pb.start();
    training.getOutputStream().close();
    if (!training.waitFor(TRAINING_LIMIT_SECONDS, TimeUnit.SECONDS)) {
      training.destroyForcibly();
      return false;
    }
    return training.exitValue() == 0;
  }

  /** Deletes in {@code dir} our files, but {@code keep}'s, last modified before {@code cutoff}. */
  static void removeUnusedSince(Path dir, Path keep, Instant cutoff) {
    String kept = keep.getFileName().toString();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (!name.startsWith(kept) && OURS.matcher(name).matches() && unusedSince(entry, cutoff)) {
          // Its lock and log first: once an archive is seen gone, nothing of it is left.
          if (name.endsWith(".jsa") || name.endsWith(".aot")) {
            delete(sibling(entry, ".lock"));
            delete(sibling(entry, ".log"));
          }
          delete(entry);
        }
      }
    } catch (IOException e) {
      // the cache cannot be listed: nothing is removed
    }
  }

  private static boolean unusedSince(Path file, Instant cutoff) {
    try {
      BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class, NOFOLLOW_LINKS);
      return a.isRegularFile() && a.lastModifiedTime().toInstant().isBefore(cutoff);
    } catch (IOException e) {
      return false;
    }
  }

  private static void delete(Path file) {
    try {
      if (Files.isRegularFile(file, NOFOLLOW_LINKS)) {
        Files.delete(file);
      }
    } catch (IOException e) {
      // gone already, or another trainer's: try again next time
    }
  }
}
