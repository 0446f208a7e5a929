/**
 * The one Jackson set-up every part of svc shares: a {@link tools.jackson.databind.json.JsonMapper}
 * whose buffers are recycled through a lock-free pool made for virtual threads ({@link
 * dev.svc.json.Jackson}), and {@link dev.svc.json.Json}: that mapper, the node factory and the
 * canonical JSON text of cache keys. Imports nothing of svc, so every package may use it.
 */
package dev.svc.json;
