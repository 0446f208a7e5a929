package dev.svc.protocol.a2a;

import dev.svc.call.ClientText;
import dev.svc.model.IpNetwork;
import dev.svc.model.Service;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Where push notifications may go. A caller chooses the URL, and svc POSTs to it from inside the
 * network, so by default only public addresses are allowed: loopback, private, CGNAT, link-local
 * and reserved addresses need {@code agents.push_notifications}, cloud metadata addresses an
 * explicit {@code allowed_networks} entry, and unspecified, multicast and broadcast addresses are
 * never allowed.
 *
 * <p>A URL is checked when its config is created ({@link #refusal(String)}), and again at every
 * delivery ({@link #resolve}): the name is resolved once, every address it resolves to must be
 * allowed, and the delivery connects to those very addresses, so a name that resolves elsewhere
 * after the check (DNS rebinding) gains nothing.
 */
final class PushDestinations {

  /** What a delivery may do with a URL. */
  sealed interface Resolution {
    /** Every address the host resolves to, each allowed: connect to these and no others. */
    record Allowed(List<InetAddress> addresses) implements Resolution {}

    /** The URL may not be called; {@code reason} says why. */
    record Refused(String reason) implements Resolution {}

    /** The name does not resolve now (it may later). */
    record Unresolved(String reason) implements Resolution {}
  }

  /** Names of cloud metadata services, refused whatever they resolve to. */
  private static final Set<String> METADATA_NAMES =
      Set.of(
          "metadata",
          "metadata.google.internal",
          "metadata.goog",
          "instance-data",
          "instance-data.ec2.internal");

  private static final List<IpNetwork> METADATA =
      networks(
          "169.254.169.0/24", // AWS, GCP, Azure, Oracle, OpenStack (.254), AWS DNS and time
          "169.254.170.0/24", // AWS ECS task metadata
          "100.100.100.200", // Alibaba Cloud
          "168.63.129.16", // Azure wire server
          "fd00:ec2::/32"); // AWS over IPv6

  private static final List<IpNetwork> UNSPECIFIED = networks("0.0.0.0/8", "::/128");
  private static final List<IpNetwork> MULTICAST =
      networks("224.0.0.0/4", "255.255.255.255", "ff00::/8");
  private static final List<IpNetwork> LOOPBACK = networks("127.0.0.0/8", "::1");
  private static final List<IpNetwork> LINK_LOCAL = networks("169.254.0.0/16", "fe80::/10");
  private static final List<IpNetwork> PRIVATE =
      networks("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7", "fec0::/10");
  private static final List<IpNetwork> SHARED = networks("100.64.0.0/10");
  private static final List<IpNetwork> RESERVED =
      networks(
          "192.0.0.0/24",
          "192.0.2.0/24",
          "198.18.0.0/15",
          "198.51.100.0/24",
          "203.0.113.0/24",
          "240.0.0.0/4",
          "100::/64",
          "2001::/32", // Teredo: hides the IPv4 address it reaches
          "2001:db8::/32");

  /** IPv6 ranges that carry an IPv4 address, which is checked in their place. */
  private static final IpNetwork NAT64 = network("64:ff9b::/96");

  private static final IpNetwork SIX_TO_FOUR = network("2002::/16");
  private static final IpNetwork IPV4_COMPATIBLE = network("::/96");

  // read from bytes: a literal ::ffff:… would parse as the IPv4 address itself
  private static final IpNetwork IPV4_MAPPED = mapped();

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
    String host = host(uri);
    String name = host.toLowerCase(Locale.ROOT);
    if (name.endsWith(".")) {
      name = name.substring(0, name.length() - 1);
    }
    if (METADATA_NAMES.contains(name)) {
      return new Resolution.Refused(host + " is a cloud metadata service");
    }
    Service.PushNotifications current = settings.get();
    Optional<InetAddress> literal = literal(host);
    List<InetAddress> addresses;
    if (literal.isPresent()) {
      addresses = List.of(literal.get());
    } else {
      try {
        addresses = resolver.resolve(host);
      } catch (UnknownHostException e) {
        return new Resolution.Unresolved(ClientText.shown(host) + " does not resolve");
      }
      if (addresses.isEmpty()) {
        return new Resolution.Unresolved(ClientText.shown(host) + " does not resolve");
      }
    }
    for (InetAddress address : addresses) {
      Optional<String> kind = refusal(address, current);
      if (kind.isPresent()) {
        String shown = address.getHostAddress();
        return new Resolution.Refused(
            (literal.isPresent() ? host : ClientText.shown(host) + " resolves to " + shown)
                + ", "
                + kind.get()
                + "; push notifications go to public addresses unless"
                + " agents.push_notifications allows more");
      }
    }
    return new Resolution.Allowed(List.copyOf(addresses));
  }

  /** The host of a URL, without the brackets of an IPv6 literal. */
  static String host(URI uri) {
    String host = uri.getHost();
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }

  /** The host as an address when it is an IP literal; parsing it never resolves a name. */
  private static Optional<InetAddress> literal(String host) {
    try {
      return Optional.of(InetAddress.ofLiteral(host));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /**
   * What kind of address {@code address} is when it may not receive push notifications, as a phrase
   * ("a loopback address"); empty when it may.
   */
  static Optional<String> refusal(InetAddress address, Service.PushNotifications settings) {
    if (in(UNSPECIFIED, address)) {
      return Optional.of("an unspecified address");
    }
    if (in(MULTICAST, address)) {
      return Optional.of("a multicast or broadcast address");
    }
    if (in(settings.allowedNetworks(), address)) {
      return Optional.empty();
    }
    Optional<InetAddress> embedded = embeddedIpv4(address);
    if (embedded.isPresent()) {
      return refusal(embedded.get(), settings)
          .map(kind -> "an IPv6 address for " + embedded.get().getHostAddress() + ", " + kind);
    }
    if (in(METADATA, address)) {
      return Optional.of("a cloud metadata address");
    }
    if (in(RESERVED, address)) {
      return Optional.of("a reserved address");
    }
    Optional<String> kind =
        in(LOOPBACK, address)
            ? Optional.of("a loopback address")
            : in(LINK_LOCAL, address)
                ? Optional.of("a link-local address")
                : in(PRIVATE, address)
                    ? Optional.of("a private address")
                    : in(SHARED, address)
                        ? Optional.of("a shared (CGNAT) address")
                        : Optional.empty();
    return settings.allowPrivateNetworks() ? Optional.empty() : kind;
  }

  /** The IPv4 address inside a NAT64, 6to4 or IPv4-compatible IPv6 address. */
  private static Optional<InetAddress> embeddedIpv4(InetAddress address) {
    if (!(address instanceof Inet6Address)) {
      return Optional.empty();
    }
    byte[] bytes = address.getAddress();
    int from;
    if (NAT64.contains(address)
        || IPV4_MAPPED.contains(address)
        || (IPV4_COMPATIBLE.contains(address) && !in(LOOPBACK, address))) {
      from = 12;
    } else if (SIX_TO_FOUR.contains(address)) {
      from = 2;
    } else {
      return Optional.empty();
    }
    try {
      return Optional.of(
          (Inet4Address) InetAddress.getByAddress(Arrays.copyOfRange(bytes, from, from + 4)));
    } catch (UnknownHostException e) {
      throw new IllegalStateException(e); // never: four bytes
    }
  }

  private static IpNetwork mapped() {
    byte[] prefix = new byte[16];
    prefix[10] = (byte) 0xff;
    prefix[11] = (byte) 0xff;
    try {
      return new IpNetwork(Inet6Address.getByAddress(null, prefix, -1), 96);
    } catch (UnknownHostException e) {
      throw new IllegalStateException(e);
    }
  }

  private static boolean in(List<IpNetwork> networks, InetAddress address) {
    for (IpNetwork network : networks) {
      if (network.contains(address)) {
        return true;
      }
    }
    return false;
  }

  private static List<IpNetwork> networks(String... written) {
    return Arrays.stream(written).map(PushDestinations::network).toList();
  }

  private static IpNetwork network(String written) {
    return IpNetwork.parse(written)
        .orElseThrow(() -> new IllegalArgumentException("not a network: " + written));
  }
}
