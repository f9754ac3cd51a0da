/** Runs the project's commands as real subprocesses. */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

export const repoRoot = new URL('../..', import.meta.url).pathname;

/**
 * How long a test waits for `local/main.ts` to say it runs. A few seconds when quiet; on a 2-core
 * machine shared with other test runs a start took over 45 s, and tests that waited 45 s (inside a
 * 30 s test) failed without anything being wrong. A start that truly hangs still fails, later.
 */
export const processStartMs = 120_000;

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export async function run(command: string, args: string[], env: Record<string, string>): Promise<RunResult> {
  const child = spawn(command, args, {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

/** Resolves with the first match of `pattern` in the child's stdout. */
export function waitForOutput(
  child: ChildProcess,
  pattern: RegExp,
  timeoutMs: number,
): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`timed out waiting for ${pattern}; output so far:\n${seen}`)),
      timeoutMs,
    );
    const onData = (data: Buffer) => {
      seen += data.toString();
      const match = seen.match(pattern);
      if (match) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        resolve(match);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (data: Buffer) => {
      seen += data.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`process exited with ${code} before ${pattern}; output:\n${seen}`));
    });
  });
}
