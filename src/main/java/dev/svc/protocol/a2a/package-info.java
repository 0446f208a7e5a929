/**
 * A2A v1 at {@code /agent/{name}} (JSON-RPC 2.0 binding with SSE streams): wire records in the v1
 * ProtoJSON shapes ({@link dev.svc.protocol.a2a.Task}, {@link dev.svc.protocol.a2a.Message}, {@link
 * dev.svc.protocol.a2a.StreamResponse}, …), the methods, agent cards, the task store and push
 * notification delivery. Model calls and tools are the business of {@code dev.svc.agent}.
 *
 * <p>Normative source: the A2A specification v1.0.1 ({@code specification/a2a.proto}); shapes as
 * captured from the official SDK in {@code shared/reference/a2a-v1.md}.
 */
package dev.svc.protocol.a2a;
