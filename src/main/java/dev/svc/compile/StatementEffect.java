package dev.svc.compile;

import dev.svc.model.ConnectorKind;
import dev.svc.model.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a statement does to its database as far as its text tells: it only reads, it only adds, it
 * may change or delete what exists, or it writes in a way svc does not classify. The MCP
 * annotations are derived from it, and {@code read_only} tools on MongoDB and Redis (which have no
 * read-only mode) are checked against it. A hint from the text, never a guarantee: an SQL function
 * called by a {@code SELECT} may still write, which only {@code read_only: true} (the database
 * itself) refuses.
 *
 * @param kind what the statement does
 * @param operation its command or first keyword ({@code SELECT}, {@code find}, {@code GET})
 * @param statements how many statements the text holds (SQL may hold several; others one)
 */
record StatementEffect(Kind kind, String operation, int statements) {

  enum Kind {
    /** Reads only. */
    READ,
    /** Writes, only adding (INSERT without upsert, MongoDB insert, Redis LPUSH). */
    ADD,
    /** Writes, and may change or delete what exists (UPDATE, DELETE, DROP, Redis DEL). */
    CHANGE,
    /** Writes, or may: not classified further. */
    WRITE
  }

  private static final Pattern MONGO_COMMAND =
      Pattern.compile("\"command\"\\s*:\\s*\\{\\s*\"([A-Za-z]+)\"");
  private static final Pattern MONGO_WRITE_STAGE = Pattern.compile("\"\\$(out|merge)\"\\s*:");

  /** MongoDB commands that only read (an aggregate only without {@code $out}/{@code $merge}). */
  static final Set<String> MONGO_READS =
      Set.of(
          "find",
          "aggregate",
          "count",
          "distinct",
          "listCollections",
          "listIndexes",
          "dbStats",
          "collStats");

  private static final Set<String> MONGO_ADDS = Set.of("insert");
  private static final Set<String> MONGO_CHANGES =
      Set.of(
          "update",
          "delete",
          "findAndModify",
          "drop",
          "dropDatabase",
          "dropIndexes",
          "renameCollection");

  /** Redis commands that only read. */
  static final Set<String> REDIS_READS =
      Set.of(
          "GET",
          "MGET",
          "GETRANGE",
          "STRLEN",
          "EXISTS",
          "TYPE",
          "TTL",
          "PTTL",
          "EXPIRETIME",
          "HGET",
          "HMGET",
          "HGETALL",
          "HKEYS",
          "HVALS",
          "HLEN",
          "HEXISTS",
          "HSTRLEN",
          "HSCAN",
          "HRANDFIELD",
          "LRANGE",
          "LLEN",
          "LINDEX",
          "LPOS",
          "SMEMBERS",
          "SISMEMBER",
          "SMISMEMBER",
          "SCARD",
          "SRANDMEMBER",
          "SSCAN",
          "SINTER",
          "SUNION",
          "SDIFF",
          "ZRANGE",
          "ZRANGEBYSCORE",
          "ZRANGEBYLEX",
          "ZREVRANGE",
          "ZREVRANGEBYSCORE",
          "ZREVRANGEBYLEX",
          "ZSCORE",
          "ZMSCORE",
          "ZCARD",
          "ZCOUNT",
          "ZLEXCOUNT",
          "ZRANK",
          "ZREVRANK",
          "ZSCAN",
          "ZRANDMEMBER",
          "XRANGE",
          "XREVRANGE",
          "XLEN",
          "GETBIT",
          "BITCOUNT",
          "BITPOS",
          "GEOPOS",
          "GEODIST",
          "GEOHASH",
          "GEOSEARCH",
          "SCAN",
          "KEYS",
          "DBSIZE",
          "PING",
          "ECHO",
          "TIME");

  private static final Set<String> REDIS_ADDS =
      Set.of("LPUSH", "RPUSH", "LPUSHX", "RPUSHX", "SADD", "XADD", "PFADD", "SETNX", "HSETNX");
  private static final Set<String> REDIS_CHANGES =
      Set.of(
          "DEL",
          "UNLINK",
          "FLUSHDB",
          "FLUSHALL",
          "SET",
          "MSET",
          "GETSET",
          "GETDEL",
          "SETEX",
          "PSETEX",
          "APPEND",
          "INCR",
          "INCRBY",
          "INCRBYFLOAT",
          "DECR",
          "DECRBY",
          "HSET",
          "HMSET",
          "HDEL",
          "HINCRBY",
          "HINCRBYFLOAT",
          "LPOP",
          "RPOP",
          "LREM",
          "LSET",
          "LTRIM",
          "SREM",
          "SPOP",
          "SMOVE",
          "ZADD",
          "ZREM",
          "ZINCRBY",
          "ZPOPMIN",
          "ZPOPMAX",
          "ZREMRANGEBYSCORE",
          "ZREMRANGEBYRANK",
          "XDEL",
          "XTRIM",
          "EXPIRE",
          "PEXPIRE",
          "EXPIREAT",
          "PERSIST",
          "RENAME",
          "SETRANGE",
          "SETBIT");

  /** SQL statements that change or delete what exists. */
  private static final Set<String> SQL_CHANGES =
      Set.of("UPDATE", "DELETE", "DROP", "TRUNCATE", "ALTER", "MERGE", "REPLACE");

  boolean reads() {
    return kind == Kind.READ;
  }

  static StatementEffect of(Statement statement, ConnectorKind connector) {
    return switch (statement) {
      case Statement.Sql sql -> sql(SqlWords.statements(sql.sql(), connector));
      case Statement.Mongo mongo -> mongo(mongo.source());
      case Statement.Redis redis -> redis(redis);
    };
  }

  private static StatementEffect sql(List<List<String>> statements) {
    if (statements.isEmpty()) {
      return new StatementEffect(Kind.WRITE, "", 0);
    }
    Kind combined = null;
    for (List<String> words : statements) {
      Kind kind = sqlKind(words);
      combined = combined == null ? kind : combine(combined, kind);
    }
    return new StatementEffect(combined, statements.get(0).get(0), statements.size());
  }

  /** Several statements: reads if all read, adds if all read or add, changes if any changes. */
  private static Kind combine(Kind a, Kind b) {
    if (a == Kind.CHANGE || b == Kind.CHANGE) {
      return Kind.CHANGE;
    }
    if (a == Kind.WRITE || b == Kind.WRITE) {
      return Kind.WRITE;
    }
    return a == Kind.ADD || b == Kind.ADD ? Kind.ADD : Kind.READ;
  }

  private static Kind sqlKind(List<String> words) {
    String first = words.get(0);
    return switch (first) {
      // SELECT … INTO creates a table (PostgreSQL) or writes a file (MySQL)
      case "SELECT" -> words.contains("INTO") ? Kind.WRITE : Kind.READ;
      case "VALUES", "TABLE", "SHOW", "DESCRIBE", "DESC" -> Kind.READ;
      case "WITH" -> {
        boolean changes = words.contains("UPDATE") || words.contains("DELETE");
        boolean merges = words.contains("MERGE");
        if (changes || merges) {
          yield Kind.CHANGE;
        }
        yield words.contains("INSERT")
            ? insertKind(words)
            : words.contains("INTO") ? Kind.WRITE : Kind.READ;
      }
      case "INSERT" -> insertKind(words);
      default -> SQL_CHANGES.contains(first) ? Kind.CHANGE : Kind.WRITE;
    };
  }

  /** An INSERT adds, unless it is an upsert or SQLite's {@code INSERT OR REPLACE}. */
  private static Kind insertKind(List<String> words) {
    boolean upsert =
        contains(words, "DO", "UPDATE")
            || contains(words, "DUPLICATE", "KEY")
            || contains(words, "OR", "REPLACE");
    return upsert ? Kind.CHANGE : Kind.ADD;
  }

  private static boolean contains(List<String> words, String first, String second) {
    for (int i = 0; i + 1 < words.size(); i++) {
      if (words.get(i).equals(first) && words.get(i + 1).equals(second)) {
        return true;
      }
    }
    return false;
  }

  private static StatementEffect mongo(String source) {
    Matcher m = MONGO_COMMAND.matcher(source);
    String command = m.find() ? m.group(1) : "";
    Kind kind;
    if (command.equals("aggregate") && MONGO_WRITE_STAGE.matcher(source).find()) {
      kind = Kind.CHANGE; // $out replaces a collection, $merge upserts: both change what exists
    } else if (MONGO_READS.contains(command)) {
      kind = Kind.READ;
    } else if (MONGO_ADDS.contains(command)) {
      kind = Kind.ADD;
    } else if (MONGO_CHANGES.contains(command)) {
      kind = Kind.CHANGE;
    } else {
      kind = Kind.WRITE;
    }
    return new StatementEffect(kind, command, 1);
  }

  private static StatementEffect redis(Statement.Redis redis) {
    String command = "";
    if (!redis.arguments().isEmpty()
        && redis.arguments().get(0).stream().allMatch(Statement.Literal.class::isInstance)) {
      StringBuilder name = new StringBuilder();
      redis.arguments().get(0).forEach(s -> name.append(((Statement.Literal) s).text()));
      command = name.toString().toUpperCase(Locale.ROOT);
    }
    Kind kind =
        REDIS_READS.contains(command)
            ? Kind.READ
            : REDIS_ADDS.contains(command)
                ? Kind.ADD
                : REDIS_CHANGES.contains(command) ? Kind.CHANGE : Kind.WRITE;
    return new StatementEffect(kind, command, 1);
  }
}
