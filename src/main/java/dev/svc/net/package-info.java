/**
 * Where svc may connect out to on a caller's or a script's behalf: {@link
 * dev.svc.net.AddressPolicy} sorts addresses (loopback, private, link-local, cloud metadata, …) and
 * resolves a host once into the addresses a connection may use; {@link dev.svc.net.HostResolver} is
 * the name lookup. Used by A2A push notifications and by scripts' {@code fetch}. And what every
 * exchange svc starts with the JDK's HTTP client needs: {@link dev.svc.net.LimitedBody}, a response
 * body read only up to a limit (the authorization server's answers, libSQL's). Imports only {@code
 * model} ({@link dev.svc.model.IpNetwork}) and {@code call}.
 */
package dev.svc.net;
