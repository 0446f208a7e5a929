package dev.svc.connector;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Go MySQL driver's DSN, {@code [user[:password]@][tcp[(host:port)]]/database[?params]}, the
 * shape the spec gives for {@code mysql} connection strings. The password may hold {@code :} and
 * {@code @}; user and password are percent-decoded where they hold {@code %XX} escapes.
 */
final class MysqlDsn {
  private MysqlDsn() {}

  /**
   * Parses the Go driver's {@code [user[:password]@][tcp[(host:port)]]/database[?params]}, where
   * the password may hold {@code :} and {@code @}.
   */
  static ConnectionStrings.UrlParts parse(String text, String adapter) {
    int at = Math.max(text.lastIndexOf("@tcp("), text.lastIndexOf("@unix("));
    if (at < 0) {
      int slash = text.lastIndexOf('/', text.indexOf('?') < 0 ? text.length() : text.indexOf('?'));
      at = slash < 0 ? -1 : text.lastIndexOf('@', slash);
    }
    String userinfo = at < 0 ? "" : text.substring(0, at);
    String rest = text.substring(at + 1);
    String address = "";
    String network;
    int open = rest.indexOf('(');
    int slash = rest.indexOf('/');
    if (open >= 0 && (slash < 0 || open < slash)) {
      int close = rest.indexOf(')', open);
      if (close < 0) {
        throw invalidDsn(adapter);
      }
      network = rest.substring(0, open);
      address = rest.substring(open + 1, close);
      rest = rest.substring(close + 1);
    } else {
      int end = slash < 0 ? rest.length() : slash;
      network = rest.substring(0, end);
      rest = rest.substring(end);
    }
    if (network.equals("unix")) {
      throw new ConnectorUnavailableException(
          "mysql adapter `"
              + adapter
              + "` names a unix socket, which svc cannot use: write tcp(<host>:<port>)");
    }
    if ((!network.isEmpty() && !network.equals("tcp")) || !rest.startsWith("/")) {
      throw invalidDsn(adapter);
    }
    int query = rest.indexOf('?');
    String database =
        ConnectionStrings.percentDecode(rest.substring(1, query < 0 ? rest.length() : query));
    int colon = userinfo.indexOf(':');
    String user = colon < 0 ? userinfo : userinfo.substring(0, colon);
    return new ConnectionStrings.UrlParts(
        user.isEmpty() ? Optional.empty() : Optional.of(ConnectionStrings.percentDecode(user)),
        colon < 0
            ? Optional.empty()
            : Optional.of(ConnectionStrings.percentDecode(userinfo.substring(colon + 1))),
        List.of(ConnectionStrings.hostPort(address, 3306, adapter)),
        database,
        query < 0 ? Map.of() : ConnectionStrings.query(rest.substring(query + 1)));
  }

  private static ConnectorUnavailableException invalidDsn(String adapter) {
    return new ConnectorUnavailableException(
        "the connection string of mysql adapter `"
            + adapter
            + "` is not in DSN form <user>:<password>@tcp(<host>:<port>)/<database>");
  }
}
