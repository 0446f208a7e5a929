package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.MongoClientSettings;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoCredential;
import com.mongodb.MongoException;
import com.mongodb.MongoExecutionTimeoutException;
import com.mongodb.MongoInterruptedException;
import com.mongodb.MongoOperationTimeoutException;
import com.mongodb.MongoSecurityException;
import com.mongodb.MongoSocketException;
import com.mongodb.MongoSocketReadTimeoutException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.ServerAddress;
import dev.svc.SvcException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.Optional;
import org.bson.BsonDocument;
import org.junit.jupiter.api.Test;

/** What each failure of the MongoDB driver becomes: the caller's to fix, or the server's fault. */
class MongoFailuresTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(5);
  private static final ServerAddress SERVER = new ServerAddress("db.example", 27017);
  private static final Optional<Throwable> REACHABLE = Optional.empty();
  private static final Optional<Throwable> REFUSED =
      Optional.of(
          new MongoSocketException(
              "Exception opening socket", SERVER, new ConnectException("Connection refused")));

  private final MongoFailures failures =
      new MongoFailures(
          "mongodb adapter `crm`",
          new MongoSettings(
              MongoClientSettings.builder().build(), "db.example:27017", Optional.of("ada")));

  private SvcException ofCommand(MongoException e) {
    return failures.ofCommand(e, TIMEOUT, REACHABLE, false);
  }

  @Test
  void aRejectedCommandIsTheCallersWithTheServersMessageButNotTheDuplicateKey() {
    MongoCommandException rejected =
        new MongoCommandException(
            BsonDocument.parse(
                "{ok: 0, code: 11000, codeName: 'DuplicateKey', errmsg: 'E11000 duplicate key"
                    + " error collection: crm.people index: _id_ dup key: { _id: \"secret\" }'}"),
            SERVER);

    SvcException failure = failures.ofCommand(rejected, TIMEOUT, REFUSED, true);

    assertThat(failure)
        .isInstanceOf(StatementFailedException.class)
        .hasMessage("E11000 duplicate key error collection: crm.people index: _id_ (DuplicateKey)");
    assertThat(((StatementFailedException) failure).timedOut()).isFalse();
  }

  @Test
  void aCommandPastItsDeadlineTimedOutWhileTheServerIsReachable() {
    for (MongoException slow :
        new MongoException[] {
          new MongoOperationTimeoutException("Operation exceeded the timeout limit"),
          new MongoExecutionTimeoutException(50, "operation exceeded time limit"),
          new MongoSocketReadTimeoutException("Timeout while receiving message", SERVER, null)
        }) {
      SvcException failure = ofCommand(slow);

      assertThat(failure)
          .isInstanceOf(StatementFailedException.class)
          .hasMessage("the statement ran longer than 5 s and was cancelled");
      assertThat(((StatementFailedException) failure).timedOut()).isTrue();
      assertThat(failures.ofCommand(slow, TIMEOUT, REFUSED, false))
          .isInstanceOf(ConnectorUnavailableException.class)
          .hasMessage(
              "cannot connect to mongodb adapter `crm` at db.example:27017: connection refused");
    }
  }

  @Test
  void aCallWhoseThreadWasInterruptedWasCancelled() {
    String cancelled = "the call was cancelled before the command finished";

    assertThat(failures.ofCommand(new MongoOperationTimeoutException("t"), TIMEOUT, REFUSED, true))
        .isInstanceOf(StatementFailedException.class)
        .hasMessage(cancelled);
    assertThat(
            failures.ofCommand(
                new MongoSocketException("closed", SERVER), TIMEOUT, REACHABLE, true))
        .hasMessage(cancelled);
    assertThat(failures.ofCommand(new MongoException("odd"), TIMEOUT, REACHABLE, true))
        .hasMessage(cancelled);
    assertThat(ofCommand(new MongoInterruptedException("interrupted", null))).hasMessage(cancelled);
  }

  @Test
  void waitingInVainForAConnectionIsAnExhaustedPoolOrAnUnreachableServer() {
    assertThat(
            ofCommand(
                new MongoTimeoutException(
                    "Timed out after 10000 ms while waiting for a connection to server"
                        + " db.example:27017.")))
        .isInstanceOf(ConnectorUnavailableException.class)
        .hasMessage("pool exhausted: every connection of mongodb adapter `crm` stayed busy");
    assertThat(
            failures.ofCommand(
                new MongoTimeoutException("Timed out while waiting for a server"),
                TIMEOUT,
                REFUSED,
                false))
        .isInstanceOf(ConnectorUnavailableException.class)
        .hasMessage(
            "cannot connect to mongodb adapter `crm` at db.example:27017: connection refused");
    assertThat(ofCommand(new MongoTimeoutException("Timed out while waiting for a server")))
        .hasMessage(
            "cannot connect to mongodb adapter `crm` at db.example:27017: no server answered");
  }

  @Test
  void refusedCredentialsAndALostConnectionAreTheServersFault() {
    MongoSecurityException refused =
        new MongoSecurityException(
            MongoCredential.createCredential("ada", "admin", "secret".toCharArray()),
            "Exception authenticating");

    assertThat(ofCommand(refused))
        .isInstanceOf(ConnectorUnavailableException.class)
        .hasMessage(
            "cannot connect to mongodb adapter `crm` at db.example:27017: authentication failed"
                + " for user `ada`");
    assertThat(
            ofCommand(
                new MongoSocketException(
                    "Prematurely reached end of stream", SERVER, new ConnectException())))
        .isInstanceOf(ConnectorUnavailableException.class)
        .hasMessage(
            "lost the connection to mongodb adapter `crm` at db.example:27017: connection refused");
    assertThat(ofCommand(new MongoException("state should be: open\nat ...")))
        .isInstanceOf(ConnectorUnavailableException.class)
        .hasMessage("mongodb adapter `crm` failed: state should be: open");
  }

  @Test
  void aFailedStartUpCheckNamesWhyNoServerAnswered() {
    MongoTimeoutException noServer = new MongoTimeoutException("Timed out while waiting");

    assertThat(failures.ofCheck(noServer, TIMEOUT, REACHABLE))
        .hasMessage(
            "cannot connect to mongodb adapter `crm` at db.example:27017: no server answered"
                + " within 5 s");
    assertThat(failures.ofCheck(noServer, TIMEOUT, REFUSED))
        .hasMessage(
            "cannot connect to mongodb adapter `crm` at db.example:27017: connection refused");
    assertThat(
            failures.ofCheck(
                noServer,
                TIMEOUT,
                Optional.of(new MongoSecurityException(null, "Exception authenticating"))))
        .hasMessage(
            "cannot connect to mongodb adapter `crm` at db.example:27017: authentication failed"
                + " for user `ada`");
    assertThat(
            failures.ofCheck(
                new MongoInterruptedException("interrupted", null), TIMEOUT, REACHABLE))
        .hasMessage("interrupted while connecting to mongodb adapter `crm`");
  }

  @Test
  void aWriteReplyWithWriteErrorsFailsTheCallCountingTheOthers() {
    BsonDocument reply =
        BsonDocument.parse(
            "{ok: 1, n: 1, writeErrors: [{index: 1, code: 11000, errmsg: 'E11000 duplicate key"
                + " error dup key: { _id: 7 }'}, {index: 2, code: 11000, errmsg: 'again'}]}");

    assertThat(MongoFailures.ofWriteReply("insert", reply).orElseThrow())
        .hasMessage(
            "`insert` reported a write error after writing 1: E11000 duplicate key error (and 1"
                + " more)");
    assertThat(
            MongoFailures.ofWriteReply(
                    "update",
                    BsonDocument.parse("{ok: 1, writeConcernError: {errmsg: 'waiting timed out'}}"))
                .orElseThrow())
        .hasMessage("`update` did not meet its write concern: waiting timed out");
    assertThat(MongoFailures.ofWriteReply("insert", BsonDocument.parse("{ok: 1, n: 2}"))).isEmpty();
  }
}
