/** `npm start`: run Dogu on this machine with the embedded runtime. */
// First: the heap settings must be in place before anything allocates much or starts a worker.
import './heap-growth.ts';
import { resolve } from 'node:path';
import { cliDefaultUrl } from '../cli/default-url.ts';
import { logger } from '../shared/commons/logger.ts';
import { demoPassword } from './accounts-startup.ts';
import { unsupportedNodeMessage } from './node-version.ts';
import { startLocalRuntime } from './runtime.ts';

const tooOld = unsupportedNodeMessage();
if (tooOld) {
  console.error(tooOld);
  process.exit(1);
}

const dataDir = resolve(process.env.DOGU_DATA_DIR ?? '.dogu/data');
const runtime = await startLocalRuntime({
  dataDir,
  host: process.env.HOST ?? '127.0.0.1',
  port: Number(process.env.PORT ?? 8787),
  demoDbPort: Number(process.env.DOGU_DEMO_DB_PORT ?? 54329),
  demoGrpcPort: Number(process.env.DOGU_DEMO_GRPC_PORT ?? 50051),
  // A fixed port keeps the development IdP's issuer (and CLI logins) stable across restarts.
  devIdpPort: Number(process.env.DOGU_DEV_IDP_PORT ?? 8788),
  ...(process.env.DOGU_DEMO_DATABASE_URL ? { demoDatabaseUrl: process.env.DOGU_DEMO_DATABASE_URL } : {}),
}).catch((error: Error) => {
  console.error(`Dogu could not start: ${error.message}`);
  process.exit(1);
});

const { url, demo } = runtime;
// The CLI goes to its default address unless told another: the banner's commands name this one.
const dogu = url === cliDefaultUrl ? 'npx dogu' : `DOGU_URL=${url} npx dogu`;
const execute = `${url}/public/v1/projects/${demo.project}/environments/${demo.environments[0]}/actions/${demo.action}/executions`;
console.log(`
Dogu is running at ${url}   (data: ${dataDir}${runtime.seeded ? ', demo seeded now' : ''})

  Demo project:      ${demo.project}   environments: ${demo.environments.join(', ')}
  Demo data source:  ${demo.dataSource}   (PostgreSQL at ${demo.database.host}:${demo.database.port})
  Demo action:       ${demo.action}
  Demo gRPC:         ${demo.grpcDataSource}   (shop.v1.OrderService at ${demo.grpcAddress}, server reflection)

${accountLines(runtime)}
  Get a token:       ${dogu} login && npx dogu print-access-token
${runtime.devIdpIssuer ? `  SSO (dev IdP):     ${dogu} login --sso   (${runtime.devIdpIssuer}: the demo users, any password)\n` : ''}  Run the demo:      curl -X POST -H "Authorization: Bearer $(npx dogu print-access-token)" \\
                       -H 'Content-Type: application/json' -d '{"arguments":{"status":"shipped","limit":5}}' \\
                       ${execute}
`);
logger.info('dogu started', { url, dataDir });

function accountLines({ url, accounts }: typeof runtime): string {
  if (accounts.adminInvitationPath) {
    return `  Set the administrator's password (admin@dogu.local), then invite your team:\n                     ${url}${accounts.adminInvitationPath}`;
  }
  if (accounts.demoUsers.length === 0) return `  Sign in:           with your account at ${url}`;
  return `  Sign in at ${url} as ${accounts.demoUsers.join(' or ')}\n                     with the demo password  ${demoPassword}   (this machine only; docs/accounts.md)`;
}

runtime.onFailure((error) => {
  logger.error('dogu cannot continue', { error });
  console.error(`Dogu stopped: ${error.message}`);
  process.exit(1);
});

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info('dogu stopping', { signal });
  await runtime.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
