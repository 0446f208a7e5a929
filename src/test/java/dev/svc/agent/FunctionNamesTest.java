package dev.svc.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class FunctionNamesTest {
  @Test
  void portableNamesAreKept() {
    FunctionNames names = new FunctionNames(List.of("get_weather", "list-users"));
    assertThat(names.function("get_weather")).isEqualTo("get_weather");
    assertThat(names.tool("list-users")).contains("list-users");
    assertThat(names.tool("delete_all")).isEmpty();
  }

  @Test
  void otherNamesAreRewrittenUniquelyAndMapBack() {
    FunctionNames names =
        new FunctionNames(List.of("users.list", "users_list", "3d.render", "x".repeat(100)));
    assertThat(names.function("users_list")).isEqualTo("users_list");
    assertThat(names.function("users.list")).isEqualTo("users_list_2");
    assertThat(names.function("3d.render")).isEqualTo("t_3d_render");
    assertThat(names.function("x".repeat(100)))
        .hasSizeLessThanOrEqualTo(64)
        .matches("[a-zA-Z_][a-zA-Z0-9_-]*");
    assertThat(names.tool("users_list_2")).contains("users.list");
    assertThat(names.tool("t_3d_render")).contains("3d.render");
  }
}
