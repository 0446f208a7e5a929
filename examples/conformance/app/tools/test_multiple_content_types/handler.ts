import { PIXEL_PNG } from "../../lib/media";

export default () =>
  mcp.content(
    mcp.text("Multiple content types test:"),
    mcp.image(PIXEL_PNG, "image/png"),
    mcp.resource("test://mixed-content-resource", JSON.stringify({ test: "data", value: 123 }), "application/json"),
  );
