/*
 * DynamoDB Local as the local stack runs it (infra/local/dynamodb.ts), with Java's single-file
 * source launcher:
 *
 *   java -cp <DynamoDB Local's jar and libraries> dynamodb-local.java <DynamoDB Local's options>
 *
 * It exits when its standard input closes. The stack holds the other end of that pipe, so when the
 * stack's process ends however it ends (kill -9 included) DynamoDB Local ends too, instead of
 * living on as an orphan that keeps the data files open and the port bound.
 */
import software.amazon.dynamodb.services.local.main.ServerRunner;

public class CobroDynamoDBLocal {
  public static void main(String[] args) throws Exception {
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
    ServerRunner.main(args);
  }
}
