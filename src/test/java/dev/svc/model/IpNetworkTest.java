package dev.svc.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class IpNetworkTest {
  static InetAddress ip(String literal) {
    return InetAddress.ofLiteral(literal);
  }

  @Test
  void aNetworkContainsTheAddressesOfItsPrefix() {
    IpNetwork ten = IpNetwork.parse("10.20.0.0/16").orElseThrow();
    assertThat(ten.contains(ip("10.20.255.1"))).isTrue();
    assertThat(ten.contains(ip("10.21.0.1"))).isFalse();
    assertThat(ten.contains(ip("::a14:1")))
        .as("an IPv6 address is never in an IPv4 network")
        .isFalse();
    IpNetwork odd = IpNetwork.parse("100.64.0.0/10").orElseThrow();
    assertThat(odd.contains(ip("100.127.255.255"))).isTrue();
    assertThat(odd.contains(ip("100.128.0.0"))).isFalse();
    IpNetwork v6 = IpNetwork.parse("fd00::/8").orElseThrow();
    assertThat(v6.contains(ip("fd12:3456::1"))).isTrue();
    assertThat(v6.contains(ip("fe80::1"))).isFalse();
  }

  @Test
  void anAddressAloneIsANetworkOfOneAndHostBitsAreCleared() {
    assertThat(IpNetwork.parse("127.0.0.1").orElseThrow().toString()).isEqualTo("127.0.0.1/32");
    assertThat(IpNetwork.parse("[::1]").orElseThrow().prefixLength()).isEqualTo(128);
    assertThat(IpNetwork.parse("10.1.2.3/8").orElseThrow().toString()).isEqualTo("10.0.0.0/8");
    assertThat(IpNetwork.parse("0.0.0.0/0").orElseThrow().contains(ip("8.8.8.8"))).isTrue();
    assertThat(IpNetwork.parse("::ffff:10.0.0.0/104").orElseThrow().toString())
        .as("an IPv4-mapped network reads as the IPv4 one")
        .isEqualTo("10.0.0.0/8");
  }

  @Test
  void namesAndMalformedNetworksAreNotParsedAndNeverResolved() {
    for (String text :
        new String[] {
          "localhost",
          "hooks.example.com",
          "10.0.0.0/33",
          "::/129",
          "10.0.0.0/",
          "10.0.0.0/-1",
          "10.0.0.0/8/8",
          "",
          "1.2.3.4.5",
          "fd00::/x"
        }) {
      assertThat(IpNetwork.parse(text)).as(text).isEmpty();
    }
  }
}
