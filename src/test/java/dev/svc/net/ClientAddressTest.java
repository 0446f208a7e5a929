package dev.svc.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class ClientAddressTest {
  @Test
  void anIpv4AddressIsItsOwnClient() {
    assertThat(of("10.0.0.7")).isEqualTo("10.0.0.7");
    assertThat(of("127.0.0.1")).isEqualTo("127.0.0.1");
  }

  @Test
  void anIpv6AddressIsItsSlash64() {
    assertThat(of("2001:db8:1:2:aaaa:bbbb:cccc:dddd"))
        .isEqualTo(of("2001:db8:1:2::1"))
        .isEqualTo(of("2001:0db8:0001:0002:ffff:ffff:ffff:ffff"))
        .isEqualTo("2001:db8:1:2::/64");
    assertThat(of("2001:db8:1:3::1")).isEqualTo("2001:db8:1:3::/64");
  }

  @Test
  void theNetworkIsWrittenAsRfc5952Says() {
    assertThat(of("::1")).isEqualTo("::/64");
    assertThat(of("fe80::1234:5678")).isEqualTo("fe80::/64");
    assertThat(of("2001:db8:0:1::9")).isEqualTo("2001:db8:0:1::/64");
    assertThat(of("2001:0:0:1::9")).isEqualTo("2001:0:0:1::/64");
    assertThat(of("0:0:1:2::")).isEqualTo("0:0:1:2::/64");
    assertThat(of("FD5C:5FC:6464:1::A")).isEqualTo("fd5c:5fc:6464:1::/64");
  }

  @Test
  void aZoneDoesNotMakeAnotherClient() throws Exception {
    InetAddress zoned = java.net.Inet6Address.getByAddress(null, of16("fe80::1"), 1);
    assertThat(ClientAddress.of(zoned)).isEqualTo("fe80::/64");
  }

  @Test
  void anIpv4AddressCarriedAsIpv6IsThatIpv4Client() throws Exception {
    byte[] mapped = new byte[16];
    mapped[10] = (byte) 0xff;
    mapped[11] = (byte) 0xff;
    mapped[12] = 10;
    mapped[15] = 7;
    InetAddress address = java.net.Inet6Address.getByAddress(null, mapped, -1);
    assertThat(ClientAddress.of(address)).isEqualTo("10.0.0.7");
  }

  private static String of(String literal) {
    return ClientAddress.of(InetAddress.ofLiteral(literal));
  }

  private static byte[] of16(String literal) {
    return InetAddress.ofLiteral(literal).getAddress();
  }
}
