package dev.cinchmcp.tool;

import dev.cinchmcp.backend.ProgramInput;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/** A path in {@code files}: relative, {@code /} between folders, every part a plain name. */
final class FilePathRule {

  private FilePathRule() {}

  /** What is wrong with {@code path}, as the end of a sentence, or null when it is fine. */
  static String problem(String path) {
    String example = " Give a path relative to the working directory, e.g. \"data/input.csv\".";
    if (path.isEmpty()) {
      return "is empty." + example;
    }
    if (path.length() > ProgramInput.MAX_PATH_CHARS) {
      return "is longer than " + ProgramInput.MAX_PATH_CHARS + " characters.";
    }
    if (path.chars().anyMatch(Character::isISOControl)) {
      return "holds a control character (a newline, tab or NUL, say); file names cannot.";
    }
    if (path.startsWith("/") || path.startsWith("~")) {
      return "is absolute: files are written under "
          + ProgramInput.WORK_DIR
          + ", so give a path relative to it."
          + example;
    }
    if (path.matches("^[A-Za-z]:.*") || path.startsWith("\\")) {
      return "is a Windows drive or network path: the sandbox is Linux." + example;
    }
    if (path.indexOf('\\') >= 0) {
      return "holds a backslash: separate folders with /, e.g. \"data/input.csv\".";
    }
    for (String part : path.split("/", -1)) {
      if (part.equals("..")) {
        return "contains \"..\": files must stay inside the working directory "
            + ProgramInput.WORK_DIR
            + ".";
      }
      if (part.isEmpty()) {
        return "has an empty part (a doubled, leading or trailing /)." + example;
      }
      if (part.equals(".")) {
        return "contains a \".\" part: write \"data/input.csv\", not \"./data/input.csv\".";
      }
      if (part.getBytes(StandardCharsets.UTF_8).length > ProgramInput.MAX_NAME_BYTES) {
        return "has a part longer than " + ProgramInput.MAX_NAME_BYTES + " bytes, too long a name.";
      }
    }
    return null;
  }

  /** A path that is a file and also a folder of another, as the end of a sentence, or null. */
  static String fileAndFolder(Collection<String> paths) {
    Set<String> files = new HashSet<>(paths);
    for (String path : paths) {
      for (int slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1)) {
        String folder = path.substring(0, slash);
        if (files.contains(folder)) {
          return "paths \""
              + ArgumentCheck.shorten(folder)
              + "\" and \""
              + ArgumentCheck.shorten(path)
              + "\" clash: \""
              + ArgumentCheck.shorten(folder)
              + "\" cannot be both a file and a folder.";
        }
      }
    }
    return null;
  }
}
