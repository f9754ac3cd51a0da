/**
 * Vitest hands CommonJS modules to ESM code with named exports; Node's own loader (what `npm start`
 * and Lambda use) gives some only a default export. The gRPC kind's protobufjs extensions must work
 * under Node itself: run them in a plain `node --import tsx` process.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { demoProtoset } from './support.ts';

const script = `
import { describeProtoset, rootFromProtoset } from './shared/connectors/grpc/protoset.ts';
import { replyJson, requestMessage } from './shared/connectors/grpc/grpc-json.ts';
const bytes = Buffer.from(process.env.PROTOSET, 'base64');
const described = await describeProtoset(new Uint8Array(bytes));
const root = rootFromProtoset(new Uint8Array(bytes));
const type = root.lookupType('shop.v1.GetOrderRequest');
const message = requestMessage(type, JSON.stringify({ id: '1001' }));
console.log(JSON.stringify({ described, reply: replyJson(type, message) }));
`;

describe('the gRPC kind under Node’s own module loader', () => {
  it('parses a protoset and maps proto3 JSON both ways', async () => {
    const protoset = Buffer.from(await demoProtoset()).toString('base64');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: process.cwd(), env: { ...process.env, PROTOSET: protoset } },
    );
    const out = JSON.parse(stdout);
    expect(out.described.services).toContain('shop.v1.OrderService');
    expect(out.reply).toMatchObject({ id: '1001' });
  }, 60_000);
});
