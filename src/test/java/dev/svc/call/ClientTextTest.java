package dev.svc.call;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ClientTextTest {
  @Test
  void shortTextIsShownWhole() {
    assertThat(ClientText.shown("get_book")).isEqualTo("get_book");
    assertThat(ClientText.shown("x".repeat(200))).hasSize(200);
  }

  @Test
  void longTextIsShownByItsBeginningAndItsLength() {
    assertThat(ClientText.shown("y".repeat(201))).isEqualTo("y".repeat(200) + "… (201 characters)");
  }

  @Test
  void aCutNeverSplitsACharacterOutsideTheBasicPlane() {
    String text = "a".repeat(199) + "😀".repeat(10); // the emoji's two halves at 199 and 200
    assertThat(ClientText.shown(text)).isEqualTo("a".repeat(199) + "… (219 characters)");
  }

  @Test
  void printableTextHasNoLineBreaksOrControlsAndAtMostAHundredCharacters() {
    assertThat(ClientText.printable("kid-1\n2026 ERROR forged\u001b[31m"))
        .isEqualTo("kid-1?2026 ERROR forged?[31m");
    assertThat(ClientText.printable("z".repeat(150))).isEqualTo("z".repeat(100) + "…");
  }
}
