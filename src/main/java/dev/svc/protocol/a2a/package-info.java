/**
 * A2A v1 at {@code /agent/{name}} (JSON-RPC 2.0 binding with SSE streams): wire records in the v1
 * ProtoJSON shapes ({@link dev.svc.protocol.a2a.Task}, {@link dev.svc.protocol.a2a.Message}, {@link
 * dev.svc.protocol.a2a.StreamResponse}, …), the methods, agent cards, the task store and push
 * notification delivery. Model calls and tools are the business of {@code dev.svc.agent}.
 *
 * <p>Normative source: the A2A specification v1.0.1 ({@code specification/a2a.proto}); the shapes
 * are pinned against the official JavaScript SDK by {@code A2aJsSdkIT}, and how svc applies the
 * specification is in {@code docs/decisions.md} "A2A v1" and {@code docs/agents.md}.
 */
package dev.svc.protocol.a2a;
