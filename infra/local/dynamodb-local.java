/*
 * DynamoDB Local as the local stack runs it (infra/local/dynamodb.ts), with Java's single-file
 * source launcher:
 *
 *   java -cp <DynamoDB Local's jar and libraries> dynamodb-local.java <DynamoDB Local's options>
 *
 * Two things the plain jar does not do:
 * - It listens on 127.0.0.1 only. DynamoDB Local has no option for a bind address (its Jetty server
 *   is made for a port alone, so it listens on every interface); the connector it made is given the
 *   loopback host before the server starts.
 * - It exits when its standard input closes. The stack holds the other end of that pipe, so when
 *   the stack's process ends however it ends (kill -9 included) DynamoDB Local ends too, instead of
 *   living on as an orphan that keeps the data files open and the port bound.
 */
import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

public class CobroDynamoDBLocal {
  public static void main(String[] args) {
    Thread parentWatch = new Thread(() -> {
      try {
        while (System.in.read() != -1) {
          // the stack writes nothing: only the end of the stream matters
        }
      } catch (java.io.IOException gone) {
        // a broken pipe means the same as its end
      }
      System.exit(0);
    }, "cobro-parent-watch");
    parentWatch.setDaemon(true);
    parentWatch.start();
    try {
      DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
      // The Jetty server is private to DynamoDB Local's proxy: reached by reflection, before start.
      Field field = DynamoDBProxyServer.class.getDeclaredField("server");
      field.setAccessible(true);
      Server server = (Server) field.get(proxy);
      for (Connector connector : server.getConnectors()) {
        ((ServerConnector) connector).setHost("127.0.0.1");
      }
      proxy.start();
    } catch (Throwable error) {
      // A taken port among them ("Address already in use"): the stack reads this and moves aside.
      error.printStackTrace();
      System.exit(1);
    }
  }
}
