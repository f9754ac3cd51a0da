import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { connectors } from '../../shared/connectors/index.ts';
import { apiTypesFile, apiTypesSource } from '../../shared/http/api-types/api-types.ts';
import { openApiDocument } from '../../shared/http/openapi.ts';

type Operation = { operationId: string; security?: unknown[]; responses: Record<string, unknown> };
interface Lint {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
}

const document = openApiDocument() as unknown as {
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { discriminator?: { mapping: Record<string, string> } }> };
};
const operations = Object.values(document.paths).flatMap((item) => Object.values(item));

async function redoclyLint(spec: unknown): Promise<Lint> {
  const dir = await mkdtemp(join(tmpdir(), 'dogu-openapi-'));
  try {
    const file = join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(spec));
    const cli = join(process.cwd(), 'node_modules/@redocly/cli/bin/cli.js');
    // Exit code 1 means problems were found; the JSON report says which.
    const { stdout } = await promisify(execFile)(process.execPath, [cli, 'lint', file, '--format=json'], {
      env: {
        ...process.env,
        REDOCLY_TELEMETRY: 'off',
        REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
        DO_NOT_TRACK: '1',
      },
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    return JSON.parse(stdout.slice(stdout.indexOf('{')));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('OpenAPI document for client generators', () => {
  it('passes Redocly lint (recommended rules, redocly.yaml) without errors or warnings', async () => {
    const lint = await redoclyLint(document);
    const problems = lint.problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
    expect(problems).toEqual([]);
    expect(lint.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);

  it('the lint can fail: an operation without security and 4xx answers is reported', async () => {
    const broken = structuredClone(document);
    const first = Object.values(Object.values(broken.paths)[0]!)[0]!;
    delete first.security;
    first.responses = { '200': { description: 'Success' } };
    delete broken.servers;
    const lint = await redoclyLint(broken);
    expect(lint.totals.errors).toBeGreaterThanOrEqual(2);
    expect(lint.problems.map((p) => p.ruleId)).toEqual(
      expect.arrayContaining(['security-defined', 'no-empty-servers', 'operation-4xx-response']),
    );
  }, 60_000);

  it('documents Problem Details (or OAuth errors) for the 4xx answers of every operation', () => {
    for (const operation of operations) {
      const errors = Object.keys(operation.responses).filter((status) => /^4\d\d$/.test(status));
      expect(errors.length, operation.operationId).toBeGreaterThan(0);
      const content = JSON.stringify(operation.responses[errors[0]!]);
      expect(content, operation.operationId).toMatch(
        ['exchangeToken', 'authorizeMcpClient'].includes(operation.operationId)
          ? /OAuthError/
          : /application\/problem\+json/,
      );
    }
  });

  it('marks public operations with empty security and the others with the bearer scheme', () => {
    const byId = Object.fromEntries(operations.map((o) => [o.operationId, o]));
    expect(byId.health?.security).toEqual([]);
    expect(byId.exchangeToken?.security).toEqual([]);
    expect(byId.executeAction?.security).toEqual([{ bearer: [] }]);
  });

  it('describes every registered kind as a member of the data-source union, by its kind', () => {
    const mapping = document.components.schemas.DataSourceInput?.discriminator?.mapping ?? {};
    expect(Object.keys(mapping).sort()).toEqual(connectors.map((c) => c.kind).sort());
    const actionMapping = document.components.schemas.ActionInput?.discriminator?.mapping ?? {};
    expect(Object.keys(actionMapping).sort()).toEqual(
      [...new Set(connectors.map((c) => c.actionKind))].sort(),
    );
  });

  it("keeps the console's generated API types up to date (npm run api-types)", async () => {
    expect(await readFile(apiTypesFile, 'utf8')).toBe(await apiTypesSource());
  });
});
