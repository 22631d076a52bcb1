import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;

import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs the local backend's tests (one package) with the JUnit launcher, outside Maven, so that
 * .ci/run can run them as an ordinary user on a copy of the built classes. Exits 1 on any failure,
 * and 1 when nothing ran (a suite that silently runs nothing proves nothing).
 *
 * <p>java -cp CLASSPATH .ci/NonRootSuite.java dev.cinchmcp.backend.local
 */
public class NonRootSuite {
  public static void main(String[] args) {
    Launcher launcher = LauncherFactory.create();
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    launcher.execute(
        LauncherDiscoveryRequestBuilder.request().selectors(selectPackage(args[0])).build(),
        listener);
    TestExecutionSummary summary = listener.getSummary();
    summary.printTo(new java.io.PrintWriter(System.out, true));
    summary.printFailuresTo(new java.io.PrintWriter(System.out, true), 30);
    boolean ok = summary.getTotalFailureCount() == 0 && summary.getTestsSucceededCount() > 0;
    System.exit(ok ? 0 : 1);
  }
}
