package dev.svc.script;

import dev.svc.connector.ResultMemory;
import dev.svc.connector.ResultRefusedException;
import dev.svc.json.Jackson;
import dev.svc.json.JsonFootprint;
import dev.svc.json.LoneSurrogates;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the JSON of a value a script returned into a tree, as the call's result: counted against
 * the call's {@link ResultMemory} account like a statement's rows, before the tree is made. A
 * script can return far more than the heap holds as a tree ({@code new Array(5e6).fill({a: 1})} is
 * 40 MB of JSON and over a gigabyte of nodes), so the JSON is measured token by token first ({@link
 * JsonFootprint}'s estimates), and a value over the ceiling, past the budget, nested deeper than
 * Jackson reads, or with text Jackson refuses (a lone surrogate in a key) is a {@link
 * ScriptFailedException}: a tool error the model reads, never a fault of the server.
 */
final class ScriptResults {
  private static final JsonMapper JSON = Jackson.MAPPER;
  private static final long MIB = 1024L * 1024;

  private ScriptResults() {}

  /**
   * The tree of {@code json}, counted on the account of the tool call running on this thread, or
   * against the ceiling of one result when none is bound.
   */
  static JsonNode read(String json) {
    if (ResultMemory.CALL.isBound()) {
      return read(json, ResultMemory.CALL.get());
    }
    try (ResultMemory.Account own = ResultMemory.process().open()) {
      return read(json, own);
    }
  }

  /**
   * Below this many characters the tree is made first and then counted, as a statement's rows are:
   * it takes a few hundred KiB at most, and the token-by-token estimate would be a second parse of
   * every handler's answer.
   */
  static final int SMALL_CHARS = 16 * 1024;

  /** The tree of {@code json}, its estimated heap added to {@code memory} first. */
  static JsonNode read(String json, ResultMemory.Account memory) {
    try {
      if (json.length() <= SMALL_CHARS) {
        JsonNode tree = LoneSurrogates.mended(JSON.readTree(json), json);
        memory.add(JsonFootprint.of(tree));
        return tree;
      }
      memory.add(footprint(json));
      return LoneSurrogates.mended(JSON.readTree(json), json);
    } catch (ResultRefusedException e) {
      throw new ScriptFailedException(
          e.limit() == ResultRefusedException.Limit.CEILING
              ? "the script returned a value that would take more than "
                  + (memory.ceilingBytes() + MIB - 1) / MIB
                  + " MiB, svc's ceiling for one result; return less (fewer rows, fewer fields,"
                  + " or a summary)"
              : e.getMessage());
    } catch (StreamConstraintsException e) {
      throw new ScriptFailedException("the script returned " + beyond(e.getOriginalMessage()));
    } catch (JacksonException e) {
      String message = e.getOriginalMessage();
      throw new ScriptFailedException(
          message.contains("surrogate")
              ? "the script returned an object key holding a lone surrogate (half of a UTF-16"
                  + " pair), which is not text"
              : "the script returned a value svc cannot read: " + message);
    }
  }

  /**
   * Which of svc's limits for reading JSON a value passed, in plain words: Jackson's message names
   * its own settings ({@code StreamReadConstraints.getMaxNameLength()}) and, for a key, the length
   * of the chunk it had read rather than of the key.
   */
  private static String beyond(String jackson) {
    StreamReadConstraints limits = JSON.tokenStreamFactory().streamReadConstraints();
    if (jackson.startsWith("Name length")) {
      return "an object key longer than " + limits.getMaxNameLength() + " characters, svc's limit";
    }
    if (jackson.contains("nesting depth")) {
      return "a value nested deeper than " + limits.getMaxNestingDepth() + " levels, svc's limit";
    }
    if (jackson.startsWith("String value length")) {
      return "a string longer than " + limits.getMaxStringLength() + " characters, svc's limit";
    }
    if (jackson.startsWith("Number value length")) {
      return "a number longer than " + limits.getMaxNumberLength() + " characters, svc's limit";
    }
    return "a value beyond svc's limits for JSON";
  }

  /** The heap the tree of {@code json} would take, as {@link JsonFootprint#of} estimates it. */
  private static long footprint(String json) {
    long bytes = 0;
    try (JsonParser parser = JSON.createParser(json)) {
      for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
        bytes +=
            switch (token) {
              case START_OBJECT -> element(parser, true) + JsonFootprint.OBJECT;
              case START_ARRAY -> element(parser, true) + JsonFootprint.ARRAY;
              case PROPERTY_NAME -> JsonFootprint.FIELD + parser.getString().length();
              case VALUE_STRING ->
                  element(parser, false) + JsonFootprint.STRING + parser.getStringLength();
              case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT ->
                  element(parser, false)
                      + (parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                              || parser.getNumberType() == JsonParser.NumberType.BIG_DECIMAL
                          ? JsonFootprint.BIG_NUMBER
                          : JsonFootprint.NUMBER);
              case VALUE_TRUE, VALUE_FALSE, VALUE_NULL -> element(parser, false);
              default -> 0;
            };
      }
    }
    return bytes;
  }

  /** An array's element costs its slot: {@code opened} when the token began a new container. */
  private static long element(JsonParser parser, boolean opened) {
    var context = opened ? parser.streamReadContext().getParent() : parser.streamReadContext();
    return context != null && context.inArray() ? JsonFootprint.ELEMENT : 0;
  }
}
