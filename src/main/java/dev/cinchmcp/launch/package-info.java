/**
 * How the server gets a fast JVM without the user typing JVM options: the fast launch's options
 * ({@link dev.cinchmcp.launch.LaunchOptions}), and the class-data archive a downloaded jar makes
 * for itself, per user and per JVM ({@link dev.cinchmcp.launch.SelfMadeArchive}).
 */
package dev.cinchmcp.launch;
