package dev.svc.model;

import java.util.List;

/** Which tools an agent may call. */
public record ToolAccess(Mode mode, List<String> tools) {
  public static final ToolAccess ALLOW_ALL = new ToolAccess(Mode.ALLOW_ALL, List.of());

  public ToolAccess {
    tools = List.copyOf(tools);
  }

  /** Access modes after {@code inherit} is resolved. */
  public enum Mode {
    ALLOW_ALL,
    ALLOW_NONE,
    ALLOW_LIST
  }

  public boolean allows(String tool) {
    return switch (mode) {
      case ALLOW_ALL -> true;
      case ALLOW_NONE -> false;
      case ALLOW_LIST -> tools.contains(tool);
    };
  }
}
