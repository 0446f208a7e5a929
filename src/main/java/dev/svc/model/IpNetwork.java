package dev.svc.model;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Optional;

/**
 * An IP network in CIDR notation ({@code 10.0.0.0/8}, {@code fd00::/8}) or one address ({@code
 * 127.0.0.1} is {@code 127.0.0.1/32}). Parsing never resolves a name: only address literals are
 * read, so the compiler stays off the network.
 *
 * @param address the network's first address (host bits cleared)
 * @param prefixLength how many leading bits of an address must match
 */
public record IpNetwork(InetAddress address, int prefixLength) {

  public IpNetwork {
    int bits = address.getAddress().length * 8;
    if (prefixLength < 0 || prefixLength > bits) {
      throw new IllegalArgumentException("prefix length " + prefixLength + " out of 0.." + bits);
    }
    address = masked(address, prefixLength);
  }

  /** Reads {@code address} or {@code address/prefix}; empty when it is neither. */
  public static Optional<IpNetwork> parse(String text) {
    String written = text.strip();
    int slash = written.indexOf('/');
    String literal = slash < 0 ? written : written.substring(0, slash);
    if (literal.startsWith("[") && literal.endsWith("]")) {
      literal = literal.substring(1, literal.length() - 1);
    }
    InetAddress address;
    try {
      address = InetAddress.ofLiteral(literal);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    int bits = address.getAddress().length * 8;
    if (slash < 0) {
      return Optional.of(new IpNetwork(address, bits));
    }
    String prefix = written.substring(slash + 1);
    if (!prefix.matches("[0-9]{1,3}")) {
      return Optional.empty();
    }
    int length = Integer.parseInt(prefix);
    // an IPv4-mapped IPv6 literal (::ffff:10.0.0.0/104) reads as IPv4: its prefix counts 96 less
    if (address instanceof Inet4Address && literal.contains(":")) {
      length -= 96;
    }
    return length < 0 || length > bits
        ? Optional.empty()
        : Optional.of(new IpNetwork(address, length));
  }

  /** Whether {@code candidate} is in this network (an IPv4 address is never in an IPv6 one). */
  public boolean contains(InetAddress candidate) {
    byte[] network = address.getAddress();
    byte[] other = candidate.getAddress();
    if (network.length != other.length) {
      return false;
    }
    return Arrays.equals(masked(other, prefixLength), network);
  }

  private static InetAddress masked(InetAddress address, int prefixLength) {
    byte[] bytes = masked(address.getAddress(), prefixLength);
    try {
      // Inet6Address keeps an IPv4-mapped network IPv6 (InetAddress.getByAddress would not)
      return bytes.length == 16
          ? Inet6Address.getByAddress(null, bytes, -1)
          : InetAddress.getByAddress(bytes);
    } catch (UnknownHostException e) {
      throw new IllegalStateException(e); // never: the length is 4 or 16
    }
  }

  private static byte[] masked(byte[] bytes, int prefixLength) {
    byte[] out = bytes.clone();
    for (int i = 0; i < out.length; i++) {
      int keep = Math.max(0, Math.min(8, prefixLength - i * 8));
      out[i] = (byte) (out[i] & (0xff00 >> keep));
    }
    return out;
  }

  /** CIDR notation, e.g. {@code 10.0.0.0/8}. */
  @Override
  public String toString() {
    return address.getHostAddress() + "/" + prefixLength;
  }
}
