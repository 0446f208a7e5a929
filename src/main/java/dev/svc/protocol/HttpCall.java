package dev.svc.protocol;

import dev.svc.call.Headers;

/**
 * An HTTP request as the protocols see it, independent of the HTTP library.
 *
 * @param method {@code GET}, {@code POST}, {@code DELETE}, …
 * @param path the request path, e.g. {@code /mcp} or {@code /agent/helper}
 * @param baseUrl scheme, host and port the client used (honouring {@code X-Forwarded-*})
 * @param requestId the id svc gave this request (in logs and server-fault errors)
 */
public record HttpCall(
    String method, String path, Headers headers, byte[] body, String baseUrl, String requestId) {}
