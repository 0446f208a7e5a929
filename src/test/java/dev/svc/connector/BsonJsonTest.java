package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBinarySubType;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDbPointer;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonJavaScript;
import org.bson.BsonJavaScriptWithScope;
import org.bson.BsonMaxKey;
import org.bson.BsonMinKey;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonRegularExpression;
import org.bson.BsonString;
import org.bson.BsonSymbol;
import org.bson.BsonTimestamp;
import org.bson.BsonUndefined;
import org.bson.BsonValue;
import org.bson.UuidRepresentation;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;

/** Every BSON type, at the edges of its range, as the JSON a MongoDB tool answers. */
class BsonJsonTest {
  private static String json(BsonValue value) {
    return BsonJson.of(value).toString();
  }

  @Test
  void everyTypeHasAJsonForm() {
    ObjectId id = new ObjectId("0123456789abcdef01234567");
    BsonDocument all =
        new BsonDocument("double", new BsonDouble(Double.NaN))
            .append("inf", new BsonDouble(Double.NEGATIVE_INFINITY))
            .append("string", new BsonString("a\u0000b"))
            .append(
                "doc",
                new BsonDocument("$where", new BsonString("x")).append("a.b", BsonNull.VALUE))
            .append("array", new BsonArray())
            .append("bin", new BsonBinary(BsonBinarySubType.USER_DEFINED, new byte[] {1, 2}))
            .append("uuid", new BsonBinary(UUID.fromString("00112233-4455-6677-8899-aabbccddeeff")))
            .append(
                "legacyUuid",
                new BsonBinary(
                    UUID.fromString("00112233-4455-6677-8899-aabbccddeeff"),
                    UuidRepresentation.JAVA_LEGACY))
            .append("shortUuid", new BsonBinary(BsonBinarySubType.UUID_STANDARD, new byte[] {7}))
            .append("undefined", new BsonUndefined())
            .append("oid", new BsonObjectId(id))
            .append("bool", BsonBoolean.TRUE)
            .append("minDate", new BsonDateTime(Long.MIN_VALUE))
            .append("maxDate", new BsonDateTime(Long.MAX_VALUE))
            .append("null", BsonNull.VALUE)
            .append("regex", new BsonRegularExpression("^a/b", "imx"))
            .append("pointer", new BsonDbPointer("db.c", id))
            .append("js", new BsonJavaScript("sleep(1)"))
            .append("symbol", new BsonSymbol("s"))
            .append("jsScope", new BsonJavaScriptWithScope("f()", new BsonDocument()))
            .append("int32", new BsonInt32(Integer.MIN_VALUE))
            .append("int64", new BsonInt64(Long.MIN_VALUE))
            .append("decNaN", new BsonDecimal128(Decimal128.NaN))
            .append("decNegZero", new BsonDecimal128(Decimal128.NEGATIVE_ZERO))
            .append(
                "decHuge",
                new BsonDecimal128(Decimal128.parse("9.999999999999999999999999999999999E+6144")))
            .append("decTiny", new BsonDecimal128(Decimal128.parse("1E-6176")))
            .append("min", new BsonMinKey())
            .append("max", new BsonMaxKey());

    String json = json(all);

    assertThat(json)
        .contains("\"double\":\"NaN\"", "\"inf\":\"-Infinity\"")
        .contains("\"doc\":{\"$where\":\"x\",\"a.b\":null}")
        .contains("\"bin\":\"AQI=\"", "\"uuid\":\"00112233-4455-6677-8899-aabbccddeeff\"")
        .contains("\"shortUuid\":\"Bw==\"", "\"undefined\":null")
        .contains("\"oid\":\"0123456789abcdef01234567\"")
        .contains("\"minDate\":\"-292275055-05-16T16:47:04.192Z\"")
        .contains("\"maxDate\":\"+292278994-08-17T07:12:55.807Z\"")
        .contains("\"regex\":\"/^a/b/imx\"", "\"pointer\":\"db.c/0123456789abcdef01234567\"")
        .contains("\"js\":\"sleep(1)\"", "\"jsScope\":\"f()\"", "\"symbol\":\"s\"")
        .contains("\"int32\":-2147483648", "\"int64\":-9223372036854775808")
        .contains(
            "\"decNaN\":\"NaN\"", "\"decNegZero\":0", "\"min\":\"MinKey\"", "\"max\":\"MaxKey\"");
    assertThat(BsonJson.of(all).get("decHuge").isNumber()).isTrue();
    assertThat(BsonJson.of(all).get("decTiny").isNumber()).isTrue();
  }

  @Test
  void aTimestampsSecondsAndIncrementAreUnsigned() {
    // before: BsonTimestamp's int getters, so a time past 2038-01-19 (2^31 s) read as negative
    BsonTimestamp late = new BsonTimestamp((int) 4_026_531_840L, -1);

    assertThat(json(late)).isEqualTo("{\"t\":4026531840,\"i\":4294967295}");
    assertThat(json(new BsonTimestamp(1_700_000_000, 7))).isEqualTo("{\"t\":1700000000,\"i\":7}");
  }

  @Test
  void aHundredLevelsOfNestingAreRead() {
    BsonValue nested = new BsonInt32(1);
    for (int i = 0; i < 100; i++) {
      nested = new BsonDocument("a", new BsonArray(List.of(nested)));
    }
    assertThat(json(nested)).startsWith("{\"a\":[{\"a\":[").contains("[1]}").endsWith("]}]}");
  }
}
