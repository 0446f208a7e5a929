package dev.svc.net;

import java.net.Inet6Address;
import java.net.InetAddress;

/**
 * The client a per-client limit counts ({@code server.limits.connections_per_client}, the address
 * an anonymous caller's rate limit is keyed by): an IPv4 address itself, an IPv6 address's {@code
 * /64} network. One IPv6 host gets a whole {@code /64} from its network and can send from any of
 * its 2^64 addresses, so counting IPv6 addresses one by one would limit nobody; a {@code /64} is
 * one LAN, which shares its limits as the hosts behind one IPv4 NAT share theirs
 * (docs/decisions.md, "Rate limits").
 */
public final class ClientAddress {
  /** How many leading bits of an IPv6 address name its client. */
  public static final int IPV6_PREFIX = 64;

  private ClientAddress() {}

  /**
   * The client {@code address} belongs to: {@code 10.0.0.7} for IPv4 (and an IPv4 address carried
   * as IPv6, {@code ::ffff:10.0.0.7}), {@code 2001:db8:1:2::/64} for IPv6, its zone left out.
   */
  public static String of(InetAddress address) {
    // not a pattern switch: its class would be made at start, outside the start-up cache
    // (StartPathClassesIT)
    return address instanceof Inet6Address v6 ? network(v6.getAddress()) : address.getHostAddress();
  }

  private static String network(byte[] bytes) {
    if (isIpv4Mapped(bytes)) {
      return (bytes[12] & 0xff)
          + "."
          + (bytes[13] & 0xff)
          + "."
          + (bytes[14] & 0xff)
          + "."
          + (bytes[15] & 0xff);
    }
    int[] groups = new int[8];
    for (int i = 0; i < IPV6_PREFIX / 16; i++) {
      groups[i] = ((bytes[2 * i] & 0xff) << 8) | (bytes[2 * i + 1] & 0xff);
    }
    return compressed(groups) + "/" + IPV6_PREFIX;
  }

  private static boolean isIpv4Mapped(byte[] bytes) {
    for (int i = 0; i < 10; i++) {
      if (bytes[i] != 0) {
        return false;
      }
    }
    return bytes[10] == (byte) 0xff && bytes[11] == (byte) 0xff;
  }

  /** RFC 5952's text of eight 16-bit groups: lower-case hex, the longest run of zeros as "::". */
  private static String compressed(int[] groups) {
    int runStart = -1;
    int runLength = 0;
    for (int i = 0; i < groups.length; ) {
      if (groups[i] != 0) {
        i++;
        continue;
      }
      int j = i;
      while (j < groups.length && groups[j] == 0) {
        j++;
      }
      if (j - i > runLength) {
        runStart = i;
        runLength = j - i;
      }
      i = j;
    }
    if (runLength < 2) {
      runStart = -1;
    }
    StringBuilder text = new StringBuilder(40);
    for (int i = 0; i < groups.length; i++) {
      if (i == runStart) {
        text.append("::");
        i += runLength - 1;
        continue;
      }
      if (!text.isEmpty() && text.charAt(text.length() - 1) != ':') {
        text.append(':');
      }
      text.append(Integer.toHexString(groups[i]));
    }
    return text.toString();
  }
}
