/**
 * What every layer serving a request shares: its caller (id, headers, session) and the deadline of
 * a call, with the watchdog that enforces deadlines; and {@link dev.svc.call.ByteBudget}, the bytes
 * that the requests in flight may hold together where one budget is shared (bodies, results, listen
 * streams, push notifications).
 */
package dev.svc.call;
