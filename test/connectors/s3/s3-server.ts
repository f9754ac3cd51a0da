/**
 * A real S3-compatible server for the tests: s3rver on 127.0.0.1 in a child process. It runs with
 * --openssl-legacy-provider because its continuation tokens use DES (paging fails without it),
 * and stores objects in a temporary directory.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface S3Server {
  endpoint: string;
  stop(): Promise<void>;
}

const serverScript = `
const S3rver = require('s3rver');
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory: process.argv[1],
  configureBuckets: JSON.parse(process.argv[2]).map((name) => ({ name })),
});
server.run().then((info) => process.stdout.write('listening ' + info.port + '\\n'), (error) => {
  process.stderr.write(String(error));
  process.exit(1);
});
`;

export async function startS3Server(buckets: string[]): Promise<S3Server> {
  const directory = mkdtempSync(join(tmpdir(), 'dogu-s3-'));
  const child: ChildProcess = spawn(
    process.execPath,
    ['--openssl-legacy-provider', '-e', serverScript, directory, JSON.stringify(buckets)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    let errors = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    child.once('exit', (code) => reject(new Error(`s3rver exited (${code}): ${errors}`)));
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    async stop() {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill();
      });
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
