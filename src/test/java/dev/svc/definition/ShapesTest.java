package dev.svc.definition;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.model.ConnectorKind;
import dev.svc.model.InputType;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The names {@link Shapes} accepts are the model's: {@code definition} may not import {@code
 * model}, so the two lists are written twice and pinned here.
 */
class ShapesTest {

  @Test
  void theConnectorsAFileMayNameAreTheConnectorKinds() {
    List<String> kinds =
        Arrays.stream(ConnectorKind.values()).map(ConnectorKind::wireName).toList();

    assertThat(Shapes.CONNECTORS).containsExactlyElementsOf(kinds);
  }

  @Test
  void theInputTypesAFileMayNameAreTheInputTypes() {
    List<String> types = Arrays.stream(InputType.values()).map(InputType::wireName).toList();

    assertThat(Shapes.INPUT_TYPES).containsExactlyElementsOf(types);
  }

  @Test
  void theAdapterAndInputShapesOfferExactlyTheseNames() {
    assertThat(Shapes.ADAPTER.field("connector").orElseThrow().type())
        .isEqualTo(new FieldType.Text(Optional.empty(), Shapes.CONNECTORS));
    assertThat(ToolShapes.INPUT.field("type").orElseThrow().type())
        .isEqualTo(new FieldType.Text(Optional.empty(), Shapes.INPUT_TYPES));
  }
}
