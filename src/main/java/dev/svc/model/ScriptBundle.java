package dev.svc.model;

/**
 * One script file bundled with the local files it imports: what the sandbox runs, so a built
 * project needs no TypeScript sources.
 *
 * @param path the entry file relative to the project directory, as in {@link ScriptRef#path()}
 * @param code CommonJS JavaScript: it assigns {@code module.exports} and calls {@code
 *     require(name)} only for npm packages, which the vendor bundle provides
 */
public record ScriptBundle(String path, String code) {}
