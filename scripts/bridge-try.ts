/**
 * `npm run bridge:try`: a bridge next to the embedded runtime in one command, to try it without
 * Docker, Terraform or a cloud. Makes a self-signed certificate (openssl) and a configuration in
 * `.dogu/bridge/` that trusts the runtime's IdP (DOGU_URL, default http://127.0.0.1:8787) and allows
 * the demo database and the demo gRPC service, starts the agent, and prints how to register it.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { runBridgeAgent } from '../cli/bridge/main.ts';

const root = resolve(import.meta.dirname, '..');
const dir = join(root, '.dogu', 'bridge');
const dogu = (process.env.DOGU_URL ?? 'http://127.0.0.1:8787').replace(/\/+$/, '');
const port = Number(process.env.DOGU_BRIDGE_PORT ?? 8443);

await mkdir(dir, { recursive: true, mode: 0o700 });
if (!existsSync(join(dir, 'cert.pem'))) {
  await promisify(execFile)('openssl', [
    ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
    ...['-days', '365', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'],
    ...['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
  ]);
}
const config = {
  id: 'local',
  issuer: `${dogu}/idp`,
  host: '127.0.0.1',
  port,
  tls: { certFile: 'cert.pem', keyFile: 'key.pem' },
  allow: [
    `127.0.0.1:${process.env.DOGU_DEMO_DB_PORT ?? 54329}`,
    `127.0.0.1:${process.env.DOGU_DEMO_GRPC_PORT ?? 50051}`,
  ],
  timeoutMs: 30_000,
};
// Kept once written: the allow-list is yours to edit.
if (!existsSync(join(dir, 'bridge.json')))
  await writeFile(join(dir, 'bridge.json'), `${JSON.stringify(config, null, 2)}\n`);
const registration = {
  name: 'Local bridge',
  url: `https://127.0.0.1:${port}`,
  certificates: [await readFile(join(dir, 'cert.pem'), 'utf8')],
};
await writeFile(join(dir, 'register.json'), `${JSON.stringify(registration)}\n`);
process.stderr.write(`Bridge 'local' for ${dogu}. In another terminal, register it in project demo:

  curl -X PUT -H "Authorization: Bearer $(npx dogu print-access-token)" -H 'Content-Type: application/json' \\
    --data @.dogu/bridge/register.json ${dogu}/api/v1/projects/demo/bridges/local

then set "via": "local" on an environment of a data source whose target is allowed above
(edit .dogu/bridge/bridge.json to allow more). Stop with Ctrl-C.

`);
process.exitCode = await runBridgeAgent(join(dir, 'bridge.json'));
