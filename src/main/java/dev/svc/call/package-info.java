/**
 * What every layer serving a request shares: its caller (id, headers, session) and the deadline of
 * a call, with the watchdog that enforces deadlines.
 */
package dev.svc.call;
