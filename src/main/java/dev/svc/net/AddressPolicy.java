package dev.svc.net;

import dev.svc.call.ClientText;
import dev.svc.model.IpNetwork;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Which addresses an outbound request that someone else chose the URL of may reach (an A2A push
 * notification, a script's {@code fetch}). svc runs inside the network, so by default only public
 * addresses are allowed: loopback, private, CGNAT, link-local and reserved addresses need {@code
 * allowPrivateNetworks} or an {@code allowedNetworks} entry, cloud metadata addresses an explicit
 * {@code allowedNetworks} entry, cloud metadata names are never allowed, and unspecified, multicast
 * and broadcast addresses never.
 *
 * <p>{@link #resolve} resolves a name once and checks every address it resolves to; the caller
 * connects to those very addresses, so a name that resolves elsewhere after the check (DNS
 * rebinding) gains nothing.
 *
 * @param allowPrivateNetworks loopback, private (RFC 1918, ULA), CGNAT, link-local and reserved
 *     addresses are allowed (never cloud metadata addresses)
 * @param allowedNetworks networks allowed besides public addresses, whatever kind they are
 */
public record AddressPolicy(boolean allowPrivateNetworks, List<IpNetwork> allowedNetworks) {
  /** Public addresses only. */
  public static final AddressPolicy PUBLIC_ONLY = new AddressPolicy(false, List.of());

  public AddressPolicy {
    allowedNetworks = List.copyOf(allowedNetworks);
  }

  /** What a request may do with a host. */
  public sealed interface Resolution {
    /** Every address the host resolves to, each allowed: connect to these and no others. */
    record Allowed(List<InetAddress> addresses) implements Resolution {
      public Allowed {
        addresses = List.copyOf(addresses);
      }
    }

    /**
     * The host may not be reached; {@code reason} says why ({@code 10.1.2.3, a private address},
     * {@code db.internal resolves to 10.1.2.3, a private address}).
     *
     * @param byAddress whether an address was refused (settings can allow it), not a metadata name
     */
    record Refused(String reason, boolean byAddress) implements Resolution {}

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

  /**
   * Resolves {@code host} (a name, or an address literal, IPv6 without brackets) and checks every
   * address; a metadata name is refused before it is looked up. A name is looked up once.
   */
  public Resolution resolve(String host, HostResolver resolver) {
    String name = host.toLowerCase(Locale.ROOT);
    if (name.endsWith(".")) {
      name = name.substring(0, name.length() - 1);
    }
    if (METADATA_NAMES.contains(name)) {
      return new Resolution.Refused(host + " is a cloud metadata service", false);
    }
    Optional<InetAddress> literal = literal(host);
    List<InetAddress> addresses;
    if (literal.isPresent()) {
      addresses = List.of(literal.get());
    } else {
      try {
        addresses = resolver.resolve(host);
      } catch (UnknownHostException | IllegalArgumentException e) {
        return new Resolution.Unresolved(ClientText.shown(host) + " does not resolve");
      }
      if (addresses.isEmpty()) {
        return new Resolution.Unresolved(ClientText.shown(host) + " does not resolve");
      }
    }
    for (InetAddress address : addresses) {
      Optional<String> kind = refusal(address);
      if (kind.isPresent()) {
        return new Resolution.Refused(
            (literal.isPresent()
                    ? host
                    : ClientText.shown(host) + " resolves to " + address.getHostAddress())
                + ", "
                + kind.get(),
            true);
      }
    }
    return new Resolution.Allowed(addresses);
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
   * What kind of address {@code address} is when this policy refuses it, as a phrase ("a loopback
   * address"); empty when it is allowed.
   */
  public Optional<String> refusal(InetAddress address) {
    if (in(UNSPECIFIED, address)) {
      return Optional.of("an unspecified address");
    }
    if (in(MULTICAST, address)) {
      return Optional.of("a multicast or broadcast address");
    }
    if (in(allowedNetworks, address)) {
      return Optional.empty();
    }
    Optional<InetAddress> embedded = embeddedIpv4(address);
    if (embedded.isPresent()) {
      return refusal(embedded.get())
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
    return allowPrivateNetworks ? Optional.empty() : kind;
  }

  /** The IPv4 address inside a NAT64, 6to4, IPv4-mapped or IPv4-compatible IPv6 address. */
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
    return Arrays.stream(written).map(AddressPolicy::network).toList();
  }

  private static IpNetwork network(String written) {
    return IpNetwork.parse(written)
        .orElseThrow(() -> new IllegalArgumentException("not a network: " + written));
  }
}
