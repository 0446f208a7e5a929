/** The caller of a request (id, headers, session), shared by every layer that serves it. */
package dev.svc.call;
