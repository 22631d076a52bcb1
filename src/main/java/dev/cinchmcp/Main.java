package dev.cinchmcp;

import dev.cinchmcp.cli.Cli;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.OptionalInt;

/**
 * Entry point: connects {@link Cli} to the process. With no option, {@code java -jar cinch-mcp.jar}
 * serves MCP on stdin/stdout; see {@code --help} for the rest.
 */
public final class Main {

  private Main() {}

  public static void main(String[] args) {
    OptionalInt child = FastStart.relaunch(args);
    if (child.isPresent()) {
      System.exit(child.getAsInt());
    }
    // The real stdout goes to the Cli alone: JSON-RPC in server mode, the text of --help, --version
    // or --check otherwise. Anything else that prints (a library, a stray println) goes to stderr,
    // where it cannot corrupt the protocol.
    OutputStream stdout =
        new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 64 * 1024);
    System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true));

    int exitCode =
        new Cli()
            .run(args, new FileInputStream(FileDescriptor.in), stdout, System.err, System.getenv());
    System.exit(exitCode);
  }
}
