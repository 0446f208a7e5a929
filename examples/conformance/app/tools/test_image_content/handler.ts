import { PIXEL_PNG } from "../../lib/media";

export default () => mcp.content(mcp.image(PIXEL_PNG, "image/png"));
