package dev.svc.connector;

import com.mysql.cj.conf.PropertySet;
import com.mysql.cj.protocol.StandardSocketFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;

/**
 * MySQL and MariaDB connections that read at most the result ceiling in bytes for one row.
 * Connector/J streams a result row by row, but reads each row whole before svc sees it (a row of
 * several packets is joined into one array first): three calls reading a row of twelve 15 MB values
 * at once ended a 512 MiB server before a byte could be counted. Here the bytes that arrive are
 * counted as the socket delivers them, since the later of the last command sent and the last row
 * the call read ({@link ResultMemory.Account#rowRead}), and the read fails past the call's ceiling
 * ({@link ResultMemory#CALL}, else the process's): Connector/J drops the connection with the rest
 * of the result, and the call gets the ceiling's refusal.
 *
 * <p>Per row, not per result: a page far into a result steps over the rows before it, which the
 * driver reads from the socket too, and those may together pass the ceiling without the page doing
 * so. What the call keeps is counted by its account as before. Counting follows the socket's reads
 * (Connector/J's reads are buffered), so a row's bytes are counted to within one read.
 *
 * <p>The socket is the one Connector/J's standard factory would make, only counted: TLS is layered
 * over it as usual (the bytes counted are then TLS records, a little more than the rows). Named in
 * the driver's {@code socketFactory} property, so Connector/J makes one per connection with the
 * public no-argument constructor.
 */
public final class MysqlReplyBound extends StandardSocketFactory {
  public MysqlReplyBound() {}

  @Override
  protected Socket createSocket(PropertySet properties) {
    return new CountedSocket();
  }

  /** A plain socket whose streams count what it reads (one connection, read by one call). */
  private static final class CountedSocket extends Socket implements ReplyCount {
    private long readSinceMark;
    private ResultMemory.Account lastCall;
    private long lastCallRows;
    private InputStream in;
    private OutputStream out;

    @Override
    public synchronized InputStream getInputStream() throws IOException {
      if (in == null) {
        in = ReplyCount.counting(super.getInputStream(), this);
      }
      return in;
    }

    @Override
    public synchronized OutputStream getOutputStream() throws IOException {
      if (out == null) {
        out = ReplyCount.counting(super.getOutputStream(), this);
      }
      return out;
    }

    @Override
    public void wrote() {
      readSinceMark = 0;
    }

    @Override
    public void read(int bytes) throws ReplyTooLargeException {
      long ceiling;
      if (ResultMemory.CALL.isBound()) {
        ResultMemory.Account call = ResultMemory.CALL.get();
        if (call != lastCall || call.rowsRead() != lastCallRows) {
          readSinceMark = 0; // another call, or the call's next row
          lastCall = call;
          lastCallRows = call.rowsRead();
        }
        ceiling = call.ceilingBytes();
      } else {
        ceiling = ResultMemory.process().ceilingBytes();
      }
      readSinceMark += bytes;
      if (readSinceMark > ceiling) {
        throw new ReplyTooLargeException(ceiling);
      }
    }
  }
}
