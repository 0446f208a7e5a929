/**
 * The one Jackson set-up every part of svc shares: a {@link tools.jackson.databind.json.JsonMapper}
 * whose buffers are recycled through a lock-free pool made for virtual threads.
 */
package dev.svc.json;
