/** The per-instance, size-bounded result cache of tool calls. */
package dev.svc.cache;
