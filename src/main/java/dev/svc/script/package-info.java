/**
 * TypeScript scripts: bundling at compile time and sandboxed execution at run time.
 *
 * <ul>
 *   <li>{@link dev.svc.script.ScriptBundler} bundles every script a project uses with the esbuild
 *       binary that ships in a Maven artifact, and builds one vendor bundle of the npm packages
 *       scripts import; {@link dev.svc.script.BundleDiagnostics} maps esbuild's messages to
 *       positioned diagnostics.
 *   <li>{@link dev.svc.script.TypeDeclarations} generates the TypeScript declarations of a
 *       project's scripts ({@code .svc-types/}: each tool's inputs and the payload of each script)
 *       and {@link dev.svc.script.TypeChecker} type-checks the scripts against them with the
 *       TypeScript compiler run in V8 ({@code svc validate}); {@link dev.svc.script.CompilerCode}
 *       keeps V8's code cache of the compiler and {@link dev.svc.script.CheckResults} the last
 *       check of each project.
 *   <li>{@link dev.svc.script.ScriptRunner} is what the runtime calls; {@link
 *       dev.svc.script.PooledScriptRunner} implements it with a pool of isolates: a call runs on
 *       its caller's own thread while a caller slot is free ({@link dev.svc.script.CallerSlots}),
 *       otherwise on a worker thread that owns its isolate ({@link dev.svc.script.WorkerPool});
 *       {@link dev.svc.script.Isolates} is what both share (making an isolate, the limits, the
 *       callers' {@link dev.svc.script.SpareIsolates}); {@link dev.svc.script.CallHost} is what one
 *       call's console and fetch reach. The pool's limits: {@link dev.svc.script.IsolateLimits}
 *       (isolates for short calls; long calls, tracked by {@link dev.svc.script.RunningCalls}, do
 *       not count), {@link dev.svc.script.ToolShares} (one tool's share of the isolates) and {@link
 *       dev.svc.script.ScriptMemory} (the process's memory ceiling, shared by its runners); {@link
 *       dev.svc.script.QueuedCall} is a call waiting for or running on a worker.
 *   <li>{@link dev.svc.script.ScriptEngine} / {@link dev.svc.script.ScriptIsolate} are the seam to
 *       the JavaScript engine; {@link dev.svc.script.V8Engine} is V8 through Javet, with the
 *       sandbox of {@code sandbox.js} (fetch, console, frozen built-ins and global object).
 * </ul>
 *
 * See {@code docs/scripts.md} for what scripts see and why.
 */
package dev.svc.script;
