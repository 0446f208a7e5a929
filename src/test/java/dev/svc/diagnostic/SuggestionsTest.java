package dev.svc.diagnostic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SuggestionsTest {
  private static final List<String> TOOLS =
      List.of("get_product", "list_products", "search_products", "add_order", "ping");

  @Test
  void aTypoOfAFewCharactersSuggestsTheName() {
    assertThat(Suggestions.closest("get_prodcut", TOOLS)).contains("get_product");
    assertThat(Suggestions.closest("GET_PRODUCT", TOOLS)).contains("get_product");
    assertThat(Suggestions.closest("pnig", TOOLS)).contains("ping");
    assertThat(Suggestions.closest("delete_everything", TOOLS)).isEmpty();
  }

  @Test
  void aWordThatBeginsANameOrThatANameBeginsSuggestsTheNearestOfThem() {
    assertThat(Suggestions.closest("search", TOOLS)).contains("search_products");
    assertThat(Suggestions.closest("list_products_by_category", TOOLS)).contains("list_products");
    assertThat(Suggestions.closest("ad", TOOLS)).isEmpty(); // too short to be a stem
  }

  @Test
  void aMisspellingIsAtMostTwoEditsAndOneForShortNames() {
    assertThat(Suggestions.misspelt("add_ordr", TOOLS)).contains("add_order");
    assertThat(Suggestions.misspelt("pong", TOOLS)).contains("ping");
    assertThat(Suggestions.misspelt("pung_", TOOLS)).isEmpty();
  }

  @Test
  void theDistanceCountsTranspositionsAsOneEditAndStopsPastTheLimit() {
    assertThat(Suggestions.distanceWithin("ab", "ba", 3)).isEqualTo(1);
    assertThat(Suggestions.distanceWithin("kitten", "sitting", 3)).isEqualTo(3);
    assertThat(Suggestions.distanceWithin("kitten", "sitting", 2)).isEqualTo(3);
    assertThat(Suggestions.distanceWithin("abcdefgh", "zyxwvuts", 3)).isEqualTo(4);
  }

  @Test
  void aClientsHugeNameCostsNoMoreThanTheCandidates() {
    // a 4 MiB request naming an unknown tool: before, each candidate cost a matrix of the name's
    // length (~400 MB each), and three such requests at once ended the process
    String huge = "x".repeat(4_000_000);
    assertThat(Suggestions.closest(huge, TOOLS)).isEmpty();
    assertThat(Suggestions.closest("get_product" + huge, TOOLS)).contains("get_product");
    assertThat(Suggestions.misspelt(huge, TOOLS)).isEmpty();
  }
}
