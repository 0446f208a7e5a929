package dev.svc.json;

import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.json.JsonMapper;

/** The JSON mapper of svc: Jackson's defaults, buffers recycled through {@link BufferPool}. */
public final class Jackson {

  private static final BufferPool POOL = new BufferPool();

  /** Thread-safe and shared by every part: one buffer pool, one set of serializers. */
  public static final JsonMapper MAPPER = JsonMapper.builder(factory()).build();

  private Jackson() {}

  /** A JSON factory with the shared buffer pool, for parts that build their own mapper. */
  public static JsonFactory factory() {
    return JsonFactory.builder().recyclerPool(POOL).build();
  }
}
