import { SILENCE_WAV } from "../../lib/media";

export default () => mcp.content(mcp.audio(SILENCE_WAV, "audio/wav"));
