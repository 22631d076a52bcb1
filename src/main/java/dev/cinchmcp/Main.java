package dev.cinchmcp;

import dev.cinchmcp.cli.Cli;
import dev.cinchmcp.launch.FastStart;
import dev.cinchmcp.launch.LauncherWatch;
import dev.cinchmcp.launch.SelfMadeArchive;
import dev.cinchmcp.launch.TrainingApi;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.Channels;
import java.util.HashMap;
import java.util.Map;

/**
 * Entry point: connects {@link Cli} to the process. With no option, {@code java -jar cinch-mcp.jar}
 * serves MCP on stdin/stdout; see {@code --help} for the rest.
 */
public final class Main {

  /**
   * The exit status after an OutOfMemoryError: the same as the JVM's -XX:+ExitOnOutOfMemoryError.
   */
  static final int OUT_OF_MEMORY = 3;

  private Main() {}

  public static void main(String[] args) {
    commonPoolOfTwoAtLeast();
    OutOfMemory.endTheProcessOnIt();
    Map<String, String> env = System.getenv();
    FastStart.Outcome launch = FastStart.relaunch(args, env);
    if (launch.childStatus().isPresent()) {
      System.exit(launch.childStatus().getAsInt());
    }
    LauncherWatch.startIfChild();
    boolean training = Boolean.getBoolean(SelfMadeArchive.TRAINING);
    // The real stdout goes to the Cli alone: JSON-RPC in server mode, the text of --help, --version
    // or --check otherwise. Anything else that prints (a library, a stray println) goes to stderr,
    // where it cannot corrupt the protocol. A training run (the archive a jar makes for itself)
    // reads its session from the jar and answers into nothing.
    OutputStream stdout =
        training
            ? OutputStream.nullOutputStream()
            : new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 64 * 1024);
    InputStream stdin = training ? SelfMadeArchive.trainingInput() : stdin();
    if (training) {
      env = trainingEnvironment(env);
    }
    System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true));

    int exitCode;
    try {
      exitCode = new Cli().run(args, stdin, stdout, System.err, env, launch.firstLine());
    } catch (OutOfMemoryError e) {
      throw OutOfMemory.end(e);
    }
    System.exit(exitCode);
  }

  /**
   * Stdin, read through a channel on Unix: closing it (a stop on a signal) ends a read under way,
   * which a plain FileInputStream's close does not, and a thread left blocked in that read would
   * hold the JVM's exit up by some 300 ms. Windows has no such signals; there it is read plainly.
   */
  private static InputStream stdin() {
    FileInputStream in = new FileInputStream(FileDescriptor.in);
    boolean windows = System.getProperty("os.name", "").startsWith("Windows");
    return windows ? in : Channels.newInputStream(in.getChannel());
  }

  /**
   * On one or two CPUs the common pool gets a parallelism of 1, and Java 17's CompletableFuture
   * then runs every asynchronous step on a new thread; the HTTP client hands each response on that
   * way. Two pool threads instead (set before anything uses the pool): a call's round trip on Java
   * 17, measured on two CPUs, about a quarter shorter. A value the user set is kept.
   */
  static void commonPoolOfTwoAtLeast() {
    String parallelism = "java.util.concurrent.ForkJoinPool.common.parallelism";
    if (System.getProperty(parallelism) == null
        && Runtime.getRuntime().availableProcessors() <= 2) {
      System.setProperty(parallelism, "2");
    }
  }

  /**
   * A training run's calls go to a {@link TrainingApi} in this JVM, so that the archive covers a
   * call's whole way through the HTTP client; the trainer has set everything else.
   */
  private static Map<String, String> trainingEnvironment(Map<String, String> env) {
    try {
      Map<String, String> training = new HashMap<>(env);
      training.put("CINCH_BASE_URL", TrainingApi.start().baseUrl());
      return training;
    } catch (IOException e) {
      return env; // the calls then fail to connect, which trains the error path instead
    }
  }

  /**
   * An OutOfMemoryError on any thread ends the process with status {@link #OUT_OF_MEMORY} and a
   * line on stderr: a server that lost a thread to it would answer only part of what it owes and
   * could even exit 0. (The fast launch's -XX:+ExitOnOutOfMemoryError does the same inside the JVM,
   * for the errors a library catches before they reach a thread's end.)
   */
  static final class OutOfMemory {

    private OutOfMemory() {}

    static void endTheProcessOnIt() {
      // A class, not a lambda: this runs first at every start, and a JVM's first lambda costs tens
      // of milliseconds to bootstrap.
      Thread.setDefaultUncaughtExceptionHandler(new Handler());
    }

    private static final class Handler implements Thread.UncaughtExceptionHandler {
      @Override
      public void uncaughtException(Thread thread, Throwable e) {
        if (e instanceof OutOfMemoryError oom) {
          end(oom);
        }
        // As the JVM's own default: the thread's name and the stack trace, on stderr.
        System.err.print("Exception in thread \"" + thread.getName() + "\" ");
        e.printStackTrace(System.err);
      }
    }

    static Error end(OutOfMemoryError e) {
      // Preallocated text, no formatting: there may be no memory left to build a message.
      System.err.println("cinch-mcp: out of memory; the server stops (exit status 3).");
      System.err.flush();
      Runtime.getRuntime().halt(OUT_OF_MEMORY);
      return e;
    }
  }
}
