/**
 * TypeScript scripts: bundling and sandboxed execution behind {@link dev.svc.script.ScriptRunner}.
 */
package dev.svc.script;
