package dev.cinchmcp.backend.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packages named in the tool description, found in real directory trees laid out as on disk.
 */
class HostPackagesTest {

  @TempDir Path root;

  private Path dir(String absolute) throws IOException {
    return Files.createDirectories(root.resolve(absolute.substring(1)));
  }

  private static final List<String> DEBIAN_PYTHON =
      HostPackages.pythonDirs(Path.of("/usr/bin/python3.11"), "3.11.2");

  @Test
  void debianPackagesAreNamedInTheListsOrderWithShortVersions() throws IOException {
    Path dist = dir("/usr/lib/python3/dist-packages");
    Files.createDirectory(dist.resolve("matplotlib-3.6.3.egg-info"));
    Files.createDirectory(dist.resolve("numpy-1.24.2.egg-info"));
    Files.writeString(dist.resolve("pandas-1.5.3.egg-info"), "a file, as older eggs are");
    Files.createDirectory(dist.resolve("scikit_learn-1.2.1.dist-info"));
    Files.createDirectory(dist.resolve("Pillow-9.4.0.egg-info"));
    Files.createDirectory(dist.resolve("PyYAML-6.0.dist-info"));
    Files.createDirectory(dist.resolve("six-1.16.0.egg-info")); // installed, but not a known name
    Files.createDirectory(dist.resolve("numpy")); // the module itself names nothing

    HostPackages found = HostPackages.find(root, DEBIAN_PYTHON, false);

    assertEquals(
        "Python: numpy 1.24, pandas 1.5, matplotlib 3.6, sklearn 1.2, PIL 9.4, yaml 6.0",
        found.describe());
  }

  @Test
  void pipUnderUsrLocalComesFirstAsOnSysPath() throws IOException {
    Files.createDirectory(dir("/usr/lib/python3/dist-packages").resolve("numpy-1.24.2.egg-info"));
    Path local = dir("/usr/local/lib/python3.11/dist-packages");
    Files.createDirectory(local.resolve("numpy-2.1.0.dist-info"));
    Files.createDirectory(local.resolve("polars-1.9.0.dist-info"));

    HostPackages found = HostPackages.find(root, DEBIAN_PYTHON, false);

    // Debian's python puts /usr/local's dist-packages first on sys.path: its numpy is imported.
    assertEquals("Python: numpy 2.1, polars 1.9", found.describe());
  }

  @Test
  void unusualNamesAreRead() throws IOException {
    Path dist = dir("/usr/lib/python3/dist-packages");
    Files.createDirectory(dist.resolve("numba-0.56.4-py3.11.egg-info"));
    Files.createDirectory(dist.resolve("lxml-4.9.2+dfsg.egg-info"));
    Files.createDirectory(dist.resolve("sympy-0.0.0.egg-info")); // Debian's placeholder
    Files.createDirectory(dist.resolve("scipy.egg-info")); // no version: not a package entry

    HostPackages found = HostPackages.find(root, DEBIAN_PYTHON, false);

    assertEquals("Python: sympy, lxml 4.9, numba 0.56", found.describe());
  }

  @Test
  void anInterpreterUnderUsrLocalSeesOnlyItsOwnSitePackages() throws IOException {
    Files.createDirectory(dir("/usr/lib/python3/dist-packages").resolve("numpy-1.24.2.egg-info"));
    Files.createDirectory(
        dir("/usr/local/lib/python3.12/site-packages").resolve("pandas-2.2.3.dist-info"));

    HostPackages found =
        HostPackages.find(
            root, HostPackages.pythonDirs(Path.of("/usr/local/bin/python3.12"), "3.12.7"), false);

    assertEquals("Python: pandas 2.2", found.describe());
    assertEquals(
        List.of(
            "/usr/local/lib/python3/dist-packages",
            "/usr/local/lib/python3.12/site-packages",
            "/usr/local/lib64/python3.12/site-packages"),
        HostPackages.pythonDirs(Path.of("/usr/local/bin/python3.12"), "3.12.7"));
  }

  @Test
  void nodePackagesAreFoundWhereNodePathPointsAndReadFromTheirManifest() throws IOException {
    Path lodash = dir("/usr/lib/node_modules/lodash");
    Files.writeString(
        lodash.resolve("package.json"), "{\"name\":\"lodash\",\"version\":\"4.17.21\"}");
    Path d3 = dir("/usr/share/nodejs/d3");
    Files.writeString(
        d3.resolve("package.json"), "{\n  \"name\": \"d3\",\n  \"version\": \"7.8.2\"\n}");
    Files.createDirectories(root.resolve("usr/lib/node_modules/npm")); // a tool, not a known name
    Files.createDirectories(root.resolve("usr/share/nodejs/mathjs")); // no manifest: not counted

    HostPackages found = HostPackages.find(root, List.of(), true);

    assertEquals("Node.js: lodash 4.17, d3 7.8", found.describe());
  }

  @Test
  void nothingInstalledSaysNothing() {
    HostPackages found = HostPackages.find(root, DEBIAN_PYTHON, true);

    assertEquals("", found.describe());
  }

  @Test
  void namesAreComparedAsPythonDoes() {
    assertEquals("scikit-learn", HostPackages.normalised("Scikit_Learn"));
    assertEquals("zope-interface", HostPackages.normalised("zope.interface"));
    assertEquals("1.24", HostPackages.shortVersion("1.24.2"));
    assertEquals("", HostPackages.shortVersion("0.0.0"));
    assertEquals("", HostPackages.shortVersion("unknown"));
    assertEquals("4.0", HostPackages.shortVersion("4.0.2+dfsg"));
    assertEquals("10", HostPackages.shortVersion("10"));
    assertEquals("2.1", HostPackages.shortVersion("2.1rc1"));
    assertEquals(
        List.of("crit", "3.17.1"),
        List.of(HostPackages.metadataName("crit-3.17.1-py3.11.egg-info")));
    assertEquals(
        List.of("lazr.restfulclient", "0.14.5"),
        List.of(HostPackages.metadataName("lazr.restfulclient-0.14.5.egg-info")));
    assertEquals(null, HostPackages.metadataName("cryptography.egg-info"));
    assertEquals(null, HostPackages.metadataName("numpy-1.24.2.pth"));
  }
}
