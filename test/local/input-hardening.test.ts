/**
 * Malformed and hostile input through a real embedded runtime (issue 12, items 4, 5, 7, 8): every
 * refusal is a 4xx Problem Details, a pattern cannot stall the process, and a connection stays
 * usable (or is closed) after an early refusal.
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { type ApiResponse, apiClient } from '../support/api.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let dir: Awaited<ReturnType<typeof tempDir>>;
let admin: ReturnType<typeof apiClient>;
let token: string;
const env = '/api/v1/projects/demo/environments/development';

const patternAction = {
  id: 'pattern-echo',
  name: 'Pattern echo',
  kind: 'sql',
  dataSourceId: 'demo-postgres',
  parameters: [{ name: 'words', kind: 'text', pattern: '(\\w+\\s?)*' }],
  statements: [{ title: 'echo', sql: 'SELECT CAST({{ words }} AS text) AS words' }],
};

beforeAll(async () => {
  dir = await tempDir('input-hardening');
  // A short body time-out: the rule is the same at 30 s (the default), the test just waits less.
  runtime = await startTestRuntime(dir.path, { bodyTimeoutMs: 1500 });
  token = await loginToken(runtime);
  admin = apiClient(runtime, token);
  expect((await admin.put(`/api/v1/projects/demo/actions/${patternAction.id}`, patternAction)).status).toBe(
    201,
  );
}, 120_000);
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
});

function expectProblem(response: ApiResponse, status: number, code: string) {
  expect({ status: response.status, code: response.body?.code }).toEqual({ status, code });
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  expect(response.body).toMatchObject({ type: `urn:dogu:problem:${code}`, status });
  expect(JSON.stringify(response.body)).not.toMatch(/\bat .+\.ts:\d+|RangeError|URIError/);
}

/** A raw HTTP/1.1 exchange: what the server writes back before it closes or goes quiet for `quietMs`. */
function rawExchange(request: string | Buffer, quietMs = 2000): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(new URL(runtime.url).port), '127.0.0.1');
    let text = '';
    let timer: NodeJS.Timeout;
    const done = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, closed });
    };
    const quiet = () => {
      clearTimeout(timer);
      timer = setTimeout(() => done(false), quietMs);
    };
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      quiet();
    });
    socket.on('end', () => done(true));
    socket.on('error', (error) => (text ? done(true) : reject(error)));
    socket.write(request);
    quiet();
  });
}

const bodyOf = (raw: string) => JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));

describe('patterns (item 4)', () => {
  it('answers the catastrophic-backtracking pattern while /healthz keeps answering', async () => {
    // No clock: 29 characters held a backtracking matcher (and the whole process) for 1.4 s, and each
    // two more triple it, so 64 would hold it for days: this test would hit its time-out, not pass.
    const words = `${'a'.repeat(64)}!`;
    const [execution, health] = await Promise.all([
      admin.execute('pattern-echo', { words }),
      fetch(`${runtime.url}/healthz`).then((r) => r.status),
    ]);
    expectProblem(execution, 422, 'argument_invalid');
    expect(execution.body.errors).toEqual([
      { pointer: '#/arguments/words', detail: "'words' must match the pattern (\\w+\\s?)*." },
    ]);
    expect(health).toBe(200);
    expect((await admin.execute('pattern-echo', { words: 'two words' })).status).toBe(200);
  });

  it('refuses a pattern the linear-time matcher cannot run when the action is saved, naming the field', async () => {
    const response = await admin.put('/api/v1/projects/demo/actions/pattern-lookahead', {
      ...patternAction,
      id: 'pattern-lookahead',
      parameters: [{ name: 'words', kind: 'text', pattern: '(?=\\d)\\w+' }],
    });
    expectProblem(response, 422, 'invalid_definition');
    expect(response.body.errors).toEqual([
      { pointer: '#/parameters/0/pattern', detail: expect.stringMatching(/lookaround/) },
    ]);
  });
});

describe('early refusals and the connection (item 5)', () => {
  it('answers the next request on a keep-alive connection after a 413', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const request = (method: string, path: string, body?: Buffer) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = http.request(`${runtime.url}${path}`, { method, agent }, (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk) => {
            text += chunk;
          });
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        });
        req.setTimeout(10_000, () => req.destroy(new Error(`${method} ${path}: no answer in 10 s`)));
        req.on('error', (error) => (error.message.includes('no answer') ? reject(error) : undefined));
        if (body) req.setHeader('content-type', 'application/json');
        req.end(body);
      });
    try {
      const tooLarge = await request('POST', `${env}/cron-jobs`, Buffer.alloc(7 * 1024 * 1024, 0x20));
      expect(tooLarge.status).toBe(413);
      expect(JSON.parse(tooLarge.text)).toMatchObject({ code: 'payload_too_large' });
      const next = await request('GET', '/healthz');
      expect(next.status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it('refuses a declared oversize body before reading it and closes the connection', async () => {
    const { text, closed } = await rawExchange(
      `POST ${env}/cron-jobs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${100 * 1024 * 1024}\r\n\r\n{`,
    );
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(text.toLowerCase()).toContain('connection: close');
    expect(bodyOf(text)).toMatchObject({ code: 'payload_too_large', status: 413 });
    expect(closed).toBe(true);
  });
});

describe('bodies that never complete, bytes that are not UTF-8 (issue 24, item 8)', () => {
  it('answers 408 and closes the connection when the body stops arriving', async () => {
    const started = Date.now();
    const { text, closed } = await rawExchange(
      `POST ${env}/cron-jobs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"id":`,
      5000,
    );
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(text.toLowerCase()).toContain('connection: close');
    expect(bodyOf(text)).toMatchObject({ code: 'request_timeout', status: 408 });
    expect(closed).toBe(true);
    expect(Date.now() - started).toBeLessThan(4500);
  });

  it('refuses a JSON body that is not valid UTF-8 with 400, and stores nothing', async () => {
    const name = Buffer.concat([
      Buffer.from('{"name":"'),
      Buffer.from([0xff, 0xfe, 0xc3, 0x28]),
      Buffer.from('"}'),
    ]);
    const response = await fetch(`${runtime.url}/api/v1/projects/demo/service-accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: name,
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toMatchObject({
      code: 'bad_request',
      detail: expect.stringMatching(/UTF-8/),
    });
    const list = await admin.get('/api/v1/projects/demo/service-accounts');
    expect(JSON.stringify(list.body)).not.toContain('\ufffd');
  });
});

describe('malformed input answers 4xx Problem Details (item 7)', () => {
  it('refuses huge Unix dates', async () => {
    const response = await admin.execute('find-orders', { since: 1e20 });
    expectProblem(response, 422, 'argument_invalid');
    expect(response.body.errors[0]).toMatchObject({ pointer: '#/arguments/since' });
  });

  it('refuses 30 February', async () => {
    const response = await admin.execute('find-orders', { since: '2026-02-30' });
    expectProblem(response, 422, 'argument_invalid');
    expect(response.body.errors[0]).toEqual({
      pointer: '#/arguments/since',
      detail: "'since' is not a valid date: no such day or time on the calendar.",
    });
  });

  it('refuses an actionId longer than an id in cron jobs and reservations, naming the field', async () => {
    const longId = 'a'.repeat(1100);
    const job = await admin.post(`${env}/cron-jobs`, {
      name: 'Too long',
      schedule: {
        kind: 'form',
        days: { by: 'weekday', weekdays: ['MON'] },
        times: { kind: 'fixed', times: ['02:30'] },
      },
      actionId: longId,
    });
    expectProblem(job, 422, 'invalid_definition');
    expect(job.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['#/actionId']);
    const reservation = await admin.post(`${env}/reservations`, {
      actionId: longId,
      runAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expectProblem(reservation, 422, 'invalid_definition');
    expect(reservation.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['#/actionId']);
  });

  it('refuses malformed and over-long path parameters, naming them', async () => {
    const job = await admin.post(`${env}/cron-jobs`, {
      name: 'Retry target',
      schedule: {
        kind: 'form',
        days: { by: 'weekday', weekdays: ['MON'] },
        times: { kind: 'fixed', times: ['02:30'] },
      },
      actionId: 'pattern-echo',
      arguments: { words: 'hello' },
    });
    expect(job.status).toBe(201);
    const noSuchTime = await admin.post(
      `${env}/cron-jobs/${job.body.id}/runs/2026-02-30T02%3A30%3A00Z/retry`,
      {},
    );
    expectProblem(noSuchTime, 400, 'bad_request');
    expect(noSuchTime.body.detail).toBe(
      "'2026-02-30T02:30:00Z' is not a scheduled time: is not a valid date: no such day or time on the calendar.",
    );
    const badEscape = await admin.post(`${env}/cron-jobs/job1/runs/%ZZ/retry`, {});
    expectProblem(badEscape, 400, 'bad_request');
    expect(badEscape.body.detail).toContain("'scheduledAt'");
    const longAction = await admin.execute('a'.repeat(1100), {});
    expectProblem(longAction, 400, 'bad_request');
    expect(longAction.body.detail).toContain("'actionId'");
    const longGet = await admin.get(`/api/v1/projects/demo/actions/${'b'.repeat(1100)}`);
    expectProblem(longGet, 400, 'bad_request');
  });

  it('answers a header section that is too large with a 431 Problem Details', async () => {
    const { text } = await rawExchange(
      `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(text).toMatch(/^HTTP\/1\.1 431 /);
    expect(text.toLowerCase()).toContain('content-type: application/problem+json');
    expect(bodyOf(text)).toMatchObject({ status: 431, code: 'header_too_large' });
  });

  it('answers a malformed request line with a 400 Problem Details', async () => {
    const { text } = await rawExchange('GARBAGE\r\n\r\n');
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text.toLowerCase()).toContain('content-type: application/problem+json');
    expect(bodyOf(text)).toMatchObject({ status: 400, code: 'bad_request' });
  });
});

describe("user groups hold only this project's service accounts (item 8)", () => {
  it("refuses another project's service account, as members do, and keeps this project's", async () => {
    const at = new Date().toISOString();
    const store = runtime.services.store;
    await store.createProject({ id: 'elsewhere', name: 'Elsewhere', createdAt: at });
    const account = (projectId: string, id: string) => ({
      projectId,
      id,
      email: `${id}@${projectId}.sa.dogu`,
      name: id,
      createdAt: at,
      updatedAt: at,
      tokenGeneration: 1,
    });
    await runtime.services.identities.saveServiceAccount(account('elsewhere', 'sa_foreign'), true);
    await runtime.services.identities.saveServiceAccount(account('demo', 'sa_local'), true);

    const asMember = await admin.put('/api/v1/projects/demo/members/sa_foreign', { role: 'member' });
    expect(asMember.status).toBe(404);
    const inGroup = await admin.put('/api/v1/projects/demo/user-groups/robots', {
      id: 'robots',
      name: 'Robots',
      role: 'developer',
      members: ['sa_local', 'sa_foreign'],
    });
    expectProblem(inGroup, 422, 'invalid_definition');
    expect(inGroup.body.errors).toEqual([
      { pointer: '#/members/1', detail: "service account 'sa_foreign' does not exist in project 'demo'" },
    ]);
    expect(await store.listUserGroupsOfPrincipal('demo', 'sa_foreign')).toEqual([]);
    const local = await admin.put('/api/v1/projects/demo/user-groups/robots', {
      id: 'robots',
      name: 'Robots',
      role: 'developer',
      members: ['sa_local'],
    });
    expect(local.status).toBe(201);
  });
});
