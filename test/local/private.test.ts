/**
 * What the local stack keeps to this user and to this machine: DynamoDB Local checks no secret (the
 * access key id alone opens a database, and names its file), so its files are the owner's only and
 * no part of the stack, DynamoDB Local included, listens beyond loopback.
 */
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import { describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.ts';
import { javaOf, outputOnce, stackHarness } from './harness.ts';

const { running, start, startIn, tempDir } = stackHarness();

/** Every file and folder under `root` (itself included) whose mode is not `folder` / `file`. */
function notPrivate(root: string): string[] {
  const loose: string[] = [];
  const check = (path: string) => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    const mode = stat.mode & 0o777;
    if (stat.isDirectory()) {
      if (mode !== 0o700) loose.push(`${path} ${mode.toString(8)}`);
      for (const entry of readdirSync(path)) check(join(path, entry));
    } else if (mode !== 0o600) loose.push(`${path} ${mode.toString(8)}`);
  };
  check(root);
  return loose;
}

/** The addresses `pid` listens on (TCP), as /proc/net/tcp{,6} write them (hex address:port). */
function listeningAddresses(pid: number): string[] {
  const inodes = new Set(
    readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        return [readlinkSync(`/proc/${pid}/fd/${fd}`).replace(/^socket:\[(\d+)\]$/, '$1')];
      } catch {
        return [];
      }
    }),
  );
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((table) =>
    readFileSync(table, 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields[3] === '0A' && inodes.has(fields[9] as string))
      .map((fields) => fields[1] as string),
  );
}

// 127.0.0.1 as IPv4, as IPv4-mapped IPv6 (::ffff:127.0.0.1) and ::1, in /proc's byte order.
const loopback = /^(0100007F|0000000000000000FFFF00000100007F|00000000000000000000000001000000):[0-9A-F]{4}$/;

describe('the local stack, for this user and this machine only', () => {
  it('keeps its state folder and every file in it, those DynamoDB Local and the emulators write included, owner-only', {
    timeout: 180_000,
  }, async () => {
    const stateDir = tempDir();
    // What an older cobro left: an open folder and files anyone could read.
    chmodSync(stateDir, 0o755);
    mkdirSync(join(stateDir, 'ses'), { mode: 0o755 });
    writeFileSync(join(stateDir, 'ses', 'sent.jsonl'), '', { mode: 0o644 });
    chmodSync(join(stateDir, 'ses', 'sent.jsonl'), 0o644);

    const started = startIn(stateDir);
    await started.ready;
    const info = JSON.parse(readFileSync(join(stateDir, 'local.json'), 'utf8'));
    expect(info.control_token).toEqual(expect.any(String));
    const credentials = {
      accessKeyId: info.aws_credentials.access_key_id,
      secretAccessKey: info.aws_credentials.secret_access_key,
    };
    const s3 = new S3Client({
      endpoint: info.endpoints.s3,
      region: info.region,
      forcePathStyle: true,
      credentials,
    });
    await s3.send(new PutObjectCommand({ Bucket: info.media_bucket, Key: 'photo.png', Body: 'png' }));
    s3.destroy();
    const ses = new SESClient({ endpoint: info.endpoints.ses, region: info.region, credentials });
    await ses.send(
      new SendEmailCommand({
        Source: info.mail_from,
        Destination: { ToAddresses: ['buyer@example.com'] },
        Message: { Subject: { Data: 'Receipt' }, Body: { Text: { Data: 'Thanks' } } },
      }),
    );
    ses.destroy();
    const kept = join(stateDir, 'ses', 'sent.jsonl');
    // Not there until the first mail is kept.
    await eventually(
      'the mail to be kept',
      async () => (existsSync(kept) && readFileSync(kept, 'utf8').includes('Receipt') ? true : undefined),
      30_000,
    );

    const written = readdirSync(stateDir, { recursive: true }).map(String);
    expect(written).toEqual(expect.arrayContaining(['local.json', 'persistent.json', 'stack.lock']));
    expect(written.some((path) => /^dynamodb\/.+\.db$/.test(path))).toBe(true);
    expect(written.some((path) => path.startsWith('s3/cobro-local-media/'))).toBe(true);
    expect(notPrivate(stateDir)).toEqual([]);
  });

  it('listens on loopback only: DynamoDB Local and every other part', { timeout: 120_000 }, async () => {
    const { info } = await running();
    const java = javaOf(info);
    const javaListens = listeningAddresses(java);
    const stackListens = listeningAddresses(info.pid);
    expect(javaListens).toHaveLength(1);
    expect(stackListens.length).toBeGreaterThanOrEqual(5); // API, S3, SES, EventBridge, control
    for (const address of [...javaListens, ...stackListens]) expect(address).toMatch(loopback);

    // From another address of this machine, DynamoDB Local's port answers nothing.
    const outside = Object.values(networkInterfaces())
      .flat()
      .find((entry) => entry && !entry.internal && entry.family === 'IPv4')?.address;
    if (outside) {
      const refused = await new Promise<string>((resolve) => {
        const socket = connect(info.ports.dynamodb, outside);
        socket.once('connect', () => {
          socket.destroy();
          resolve('connected');
        });
        socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      });
      expect(refused).toBe('ECONNREFUSED');
    }
  });

  it('on a Java without the jdk.compiler module, still starts (DynamoDB Local as the plain jar) and says what that costs', {
    timeout: 120_000,
  }, async () => {
    // The java launcher reads JDK_JAVA_OPTIONS: these modules run the plain jar, not a source file.
    const started = start(['--in-memory', '--port', '0', '--quiet', '--state-dir', tempDir()], {
      ...process.env,
      JDK_JAVA_OPTIONS: '--limit-modules=java.se,jdk.unsupported,jdk.crypto.ec',
    });
    const url = await started.ready;
    const notice =
      'this Java has no jdk.compiler module, so DynamoDB Local runs as the plain jar: it listens on every network interface';
    expect(await outputOnce(started, notice)).toContain(notice);
    expect((await fetch(`${url}/health`)).status).toBe(200);
  });
});
