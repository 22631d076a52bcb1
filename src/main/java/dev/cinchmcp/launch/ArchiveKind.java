package dev.cinchmcp.launch;

/**
 * Which class-data archive a JVM can make for itself, and the options that make and use it.
 *
 * <p>Java 25 and later: the AOT cache (JEP 483/514), made in one training run with {@code
 * -XX:AOTCacheOutput}; on Temurin 25 it started the server faster than a dynamic archive and made
 * its first call faster still (bench/README.md). Java 17 to 24: a dynamic CDS archive written when
 * the training run exits ({@code -XX:ArchiveClassesAtExit}). Java 19's {@code
 * -XX:+AutoCreateSharedArchive} is not used: it writes the archive in place at the end of a real
 * session (that session's exit then waits for the dump, and two first starts write one file), from
 * wherever that session happened to go.
 */
enum ArchiveKind {
  DYNAMIC_CDS("-XX:ArchiveClassesAtExit=", "-XX:SharedArchiveFile=", "jsa"),
  AOT_CACHE("-XX:AOTCacheOutput=", "-XX:AOTCache=", "aot");

  private final String makeOption;
  private final String useOption;
  private final String extension;

  ArchiveKind(String makeOption, String useOption, String extension) {
    this.makeOption = makeOption;
    this.useOption = useOption;
    this.extension = extension;
  }

  static ArchiveKind forFeatureVersion(int feature) {
    return feature >= 25 ? AOT_CACHE : DYNAMIC_CDS;
  }

  static ArchiveKind forThisJvm() {
    return forFeatureVersion(Runtime.version().feature());
  }

  String make(java.nio.file.Path file) {
    return makeOption + file;
  }

  String use(java.nio.file.Path file) {
    return useOption + file;
  }

  String extension() {
    return extension;
  }
}
