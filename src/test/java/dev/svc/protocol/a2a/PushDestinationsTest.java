package dev.svc.protocol.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.model.IpNetwork;
import dev.svc.model.Service;
import dev.svc.net.AddressPolicy;
import dev.svc.net.HostResolver;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which push-notification addresses are allowed, by kind and by setting (no network). */
class PushDestinationsTest {
  static final Service.PushNotifications DEFAULT = Service.PushNotifications.DEFAULT;
  static final Service.PushNotifications PRIVATE = new Service.PushNotifications(true, List.of());

  static Optional<String> refusal(String literal, Service.PushNotifications settings) {
    return PushDestinations.refusal(InetAddress.ofLiteral(literal), settings);
  }

  static Service.PushNotifications allowing(String... networks) {
    return new Service.PushNotifications(
        false,
        java.util.Arrays.stream(networks).map(n -> IpNetwork.parse(n).orElseThrow()).toList());
  }

  @Test
  void publicAddressesAreAllowed() {
    for (String address : List.of("8.8.8.8", "1.1.1.1", "2606:4700::1111", "100.128.0.1")) {
      assertThat(refusal(address, DEFAULT)).as(address).isEmpty();
    }
  }

  @Test
  void eachKindOfNonPublicAddressIsRefusedByDefaultAndNamed() {
    Map<String, String> kinds =
        Map.ofEntries(
            Map.entry("127.0.0.1", "a loopback address"),
            Map.entry("127.5.6.7", "a loopback address"),
            Map.entry("::1", "a loopback address"),
            Map.entry("10.1.2.3", "a private address"),
            Map.entry("172.16.0.1", "a private address"),
            Map.entry("172.31.255.255", "a private address"),
            Map.entry("192.168.1.1", "a private address"),
            Map.entry("fc00::1", "a private address"),
            Map.entry("fd12::1", "a private address"),
            Map.entry("100.64.0.1", "a shared (CGNAT) address"),
            Map.entry("169.254.1.1", "a link-local address"),
            Map.entry("fe80::1", "a link-local address"),
            Map.entry("169.254.169.254", "a cloud metadata address"),
            Map.entry("fd00:ec2::254", "a cloud metadata address"),
            Map.entry("100.100.100.200", "a cloud metadata address"),
            Map.entry("0.0.0.0", "an unspecified address"),
            Map.entry("::", "an unspecified address"),
            Map.entry("224.0.0.1", "a multicast or broadcast address"),
            Map.entry("ff02::1", "a multicast or broadcast address"),
            Map.entry("255.255.255.255", "a multicast or broadcast address"),
            Map.entry("192.0.2.1", "a reserved address"),
            Map.entry("2001:db8::1", "a reserved address"));
    kinds.forEach(
        (address, kind) -> assertThat(refusal(address, DEFAULT)).as(address).contains(kind));
  }

  @Test
  void ipv6FormsOfAnIpv4AddressAreCheckedAsThatAddress() {
    assertThat(refusal("::ffff:127.0.0.1", DEFAULT)).contains("a loopback address");
    assertThat(refusal("64:ff9b::a9fe:a9fe", DEFAULT))
        .contains("an IPv6 address for 169.254.169.254, a cloud metadata address");
    assertThat(refusal("2002:0a00:0001::1", DEFAULT))
        .contains("an IPv6 address for 10.0.0.1, a private address");
    assertThat(refusal("::7f00:1", DEFAULT))
        .contains("an IPv6 address for 127.0.0.1, a loopback address");
    assertThat(refusal("64:ff9b::808:808", DEFAULT)).isEmpty();
  }

  @Test
  void allowPrivateNetworksAllowsPrivateKindsButNeverMetadataOrUnspecified() {
    for (String address : List.of("127.0.0.1", "::1", "10.0.0.1", "100.64.0.1", "fe80::1")) {
      assertThat(refusal(address, PRIVATE)).as(address).isEmpty();
    }
    assertThat(refusal("169.254.169.254", PRIVATE)).contains("a cloud metadata address");
    assertThat(refusal("0.0.0.0", PRIVATE)).contains("an unspecified address");
    assertThat(refusal("224.0.0.1", PRIVATE)).contains("a multicast or broadcast address");
  }

  @Test
  void allowedNetworksAllowExactlyWhatTheyList() {
    Service.PushNotifications one = allowing("127.0.0.1", "10.20.0.0/16", "169.254.169.254");
    assertThat(refusal("127.0.0.1", one)).isEmpty();
    assertThat(refusal("127.0.0.2", one)).contains("a loopback address");
    assertThat(refusal("10.20.3.4", one)).isEmpty();
    assertThat(refusal("10.21.3.4", one)).contains("a private address");
    assertThat(refusal("169.254.169.254", one)).as("listed explicitly").isEmpty();
    assertThat(refusal("0.0.0.0", allowing("0.0.0.0/0")))
        .as("never, whatever is listed")
        .contains("an unspecified address");
  }

  @Test
  void aNameIsCheckedByEveryAddressItResolvesTo() {
    HostResolver resolver =
        host ->
            switch (host) {
              case "mixed.test" ->
                  List.of(InetAddress.ofLiteral("8.8.8.8"), InetAddress.ofLiteral("10.0.0.1"));
              case "public.test" -> List.of(InetAddress.ofLiteral("8.8.8.8"));
              default -> throw new UnknownHostException(host);
            };
    PushDestinations destinations = new PushDestinations(() -> DEFAULT, resolver);
    assertThat(destinations.refusal("https://mixed.test/hook"))
        .contains(
            "mixed.test resolves to 10.0.0.1, a private address; push notifications go to public"
                + " addresses unless agents.push_notifications allows more");
    assertThat(destinations.resolve(URI.create("https://public.test/hook")))
        .isEqualTo(new AddressPolicy.Resolution.Allowed(List.of(InetAddress.ofLiteral("8.8.8.8"))));
    assertThat(destinations.refusal("https://nowhere.test/"))
        .as("checked again at delivery")
        .isEmpty();
    assertThat(destinations.resolve(URI.create("https://nowhere.test/")))
        .isInstanceOf(AddressPolicy.Resolution.Unresolved.class);
    assertThat(destinations.refusal("http://METADATA.google.internal./computeMetadata/v1/"))
        .contains("METADATA.google.internal. is a cloud metadata service");
    assertThat(destinations.refusal("http://[::1]:8080/"))
        .get()
        .asString()
        .startsWith("::1, a loopback");
  }
}
