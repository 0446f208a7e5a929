package dev.svc.protocol.a2a;

import dev.svc.model.Service;
import dev.svc.net.AddressPolicy;
import dev.svc.net.AddressPolicy.Resolution;
import dev.svc.net.HostResolver;
import java.net.InetAddress;
import java.net.URI;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Where push notifications may go. A caller chooses the URL, and svc POSTs to it from inside the
 * network, so by default only public addresses are allowed ({@link AddressPolicy}, with {@code
 * agents.push_notifications} as its settings).
 *
 * <p>A URL is checked when its config is created ({@link #refusal(String)}), and again at every
 * delivery ({@link #resolve}): the name is resolved once, every address it resolves to must be
 * allowed, and the delivery connects to those very addresses, so a name that resolves elsewhere
 * after the check (DNS rebinding) gains nothing.
 */
final class PushDestinations {
  private final Supplier<Service.PushNotifications> settings;
  private final HostResolver resolver;

  /**
   * @param settings the current {@code agents.push_notifications} (read on every check, so a reload
   *     applies to the next delivery)
   */
  PushDestinations(Supplier<Service.PushNotifications> settings, HostResolver resolver) {
    this.settings = settings;
    this.resolver = resolver;
  }

  /**
   * Why a push URL may not be used, checked when its config is created: the host by name, and every
   * address it resolves to now. A name that does not resolve yet is accepted: it is checked at
   * every delivery.
   *
   * @param url an absolute http(s) URL ({@link PushConfig#fromJson} checked its shape)
   */
  Optional<String> refusal(String url) {
    return switch (resolve(URI.create(url))) {
      case Resolution.Refused refused -> Optional.of(refused.reason());
      case Resolution.Allowed allowed -> Optional.empty();
      case Resolution.Unresolved unresolved -> Optional.empty();
    };
  }

  /** Resolves the URL's host and checks every address, for one delivery. */
  Resolution resolve(URI uri) {
    Resolution resolution = policy(settings.get()).resolve(host(uri), resolver);
    return resolution instanceof Resolution.Refused(String reason, boolean byAddress) && byAddress
        ? new Resolution.Refused(
            reason
                + "; push notifications go to public addresses unless"
                + " agents.push_notifications allows more",
            true)
        : resolution;
  }

  /** The host of a URL, without the brackets of an IPv6 literal. */
  static String host(URI uri) {
    String host = uri.getHost();
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }

  /**
   * What kind of address {@code address} is when it may not receive push notifications, as a phrase
   * ("a loopback address"); empty when it may.
   */
  static Optional<String> refusal(InetAddress address, Service.PushNotifications settings) {
    return policy(settings).refusal(address);
  }

  private static AddressPolicy policy(Service.PushNotifications settings) {
    return new AddressPolicy(settings.allowPrivateNetworks(), settings.allowedNetworks());
  }
}
