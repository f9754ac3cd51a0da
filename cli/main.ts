/** `dogu`: log in to Dogu and call its API from a terminal, a script or CI. */
import { parseArgs } from 'node:util';
import { apply } from './commands/apply.ts';
import { auditExport, auditVerify } from './commands/audit.ts';
import { runBridge } from './commands/bridge.ts';
import { execute, parseArgumentPairs } from './commands/execute.ts';
import { exportProject } from './commands/export.ts';
import { login } from './commands/login.ts';
import { mcpStdio } from './commands/mcp.ts';
import { pollSecondsOf } from './commands/mcp-tool-watch.ts';
import { accessToken } from './commands/print-access-token.ts';
import { smoke } from './commands/smoke.ts';
import { uploadProtoset } from './commands/upload-protoset.ts';
import { configJsonSchemaText } from './config/json-schema.ts';
import { removeCredentials } from './credentials.ts';
import { cliDefaultUrl } from './default-url.ts';

const usage = `Usage: dogu <command> [options]

Commands:
  login                    Log in and store the token in ~/.dogu/credentials.json
                             (embedded runtime: its local admin login)
                             --sso         log in at the IdP in a browser (code + PKCE)
                             --device      log in on another device (device flow)
                             --open        with --sso: start the browser
                             --email <a>   sign in with a password (DOGU_PASSWORD, or asked)
  print-access-token       Print the stored token (renewed first when expired)
  logout                   Remove the stored token
  execute <action>         Run an action: --project P --env E [--arg name=value ...]
                             --preview     run it in a transaction that is rolled back and
                                           print the rows it would affect (PostgreSQL, MySQL)
  apply -f FILE            Make a project match a config file (docs/config.md); never deletes
                             --dry-run     print the plan as Markdown and change nothing
                                           (exit 0 with or without changes; 1 on errors)
                             --project P   apply to P instead of the file's project
  export [-o FILE]         Write a project as a config file (stdout without -o): --project P
                             --names-from F  keep the environment variable names F gives
                                           secrets and passwords (default: the -o file, if any)
  smoke                    Check a fresh deployment end to end (docs/deploy.md): health,
                             OpenAPI, the stored login, an HTTP action on an echo, an async
                             job, a reservation; removes what it made; exit 1 on a failure
                             --echo-url U  an echo the deployment reaches (default: one the
                                           smoke serves, only for a runtime on loopback)
                             --wait-reservation  wait for the reservation to run (~2 min)
                             --json        one JSON document instead of lines
  mcp                      Serve Dogu's MCP server on stdio for a local AI assistant
                             (docs/agents.md): --project P --env E; as the stored login,
                             or $DOGU_TOKEN (e.g. a service account's access token);
                             --poll-seconds N  look for a changed tool list every N s
                             (default 30, or $DOGU_MCP_POLL_SECONDS; 0 = never)
  audit verify             Check a project's audit hash chain (--project P, --from ENTRY_ID);
                             names the first entry changed, removed or inserted; exit 1 then
  audit export [-o FILE]   Download the audit log with its hashes: --project P
                             --format csv|jsonl|json (default jsonl), --since T, --until T
  schema                   Print the config file's JSON Schema
  bridge --config FILE     Run a bridge agent next to private data (docs/bridge.md)
  upload-protoset FILE     Upload a protoset as a new version (docs/grpc.md):
                             --data-source ID --environment ID [--name N] [--project P]
                             with $DOGU_GRPC_API_ACCESS_TOKEN: the upload API (CI);
                             without: as the logged-in user

Options:
  --project P              The project (default: demo; for apply: the file's project)
  --url URL                Dogu's base URL (default: $DOGU_URL or http://127.0.0.1:8787)
  -h, --help               Show this help
`;

const defaultProject = 'demo';

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      // No default here: apply takes the file's project unless --project is given.
      project: { type: 'string' },
      env: { type: 'string', default: 'development' },
      arg: { type: 'string', multiple: true, default: [] },
      file: { type: 'string', short: 'f' },
      output: { type: 'string', short: 'o' },
      'names-from': { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      preview: { type: 'boolean', default: false },
      sso: { type: 'boolean', default: false },
      device: { type: 'boolean', default: false },
      open: { type: 'boolean', default: false },
      email: { type: 'string' },
      'data-source': { type: 'string' },
      environment: { type: 'string' },
      name: { type: 'string' },
      config: { type: 'string' },
      'echo-url': { type: 'string' },
      'wait-reservation': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      'poll-seconds': { type: 'string' },
      from: { type: 'string' },
      format: { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const baseUrl = values.url ?? process.env.DOGU_URL ?? cliDefaultUrl;
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    process.stdout.write(usage);
    return command || values.help ? 0 : 2;
  }
  switch (command) {
    case 'login': {
      const credentials = await login(baseUrl, {
        sso: values.sso!,
        device: values.device!,
        open: values.open!,
        ...(values.email ? { email: values.email } : {}),
      });
      const expires = new Date(credentials.expiresAt * 1000).toISOString();
      process.stderr.write(
        `Logged in to ${credentials.url} as ${credentials.email} (token expires ${expires}).\n`,
      );
      return 0;
    }
    case 'print-access-token':
      process.stdout.write(`${(await accessToken()).token}\n`);
      return 0;
    case 'logout':
      process.stderr.write((await removeCredentials()) ? 'Logged out.\n' : 'Not logged in.\n');
      return 0;
    case 'execute': {
      if (!rest[0]) throw new Error('Name the action to run: dogu execute <action>.');
      const result = await execute({
        baseUrl,
        project: values.project ?? defaultProject,
        environment: values.env!,
        action: rest[0],
        args: parseArgumentPairs(values.arg!),
        preview: values.preview!,
      });
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      return 0;
    }
    case 'apply':
      if (!values.file) throw new Error('Name the config file: dogu apply -f dogu.yaml [--dry-run].');
      return apply({
        baseUrl,
        file: values.file,
        ...(values.project === undefined ? {} : { project: values.project }),
        dryRun: values['dry-run']!,
        env: process.env,
        stdout: (text) => process.stdout.write(text),
        stderr: (text) => process.stderr.write(text),
      });
    case 'export':
      return exportProject({
        baseUrl,
        project: values.project ?? defaultProject,
        ...(values.output === undefined ? {} : { output: values.output }),
        ...(values['names-from'] === undefined ? {} : { namesFrom: values['names-from'] }),
        stdout: (text) => process.stdout.write(text),
        stderr: (text) => process.stderr.write(text),
      });
    case 'upload-protoset': {
      if (!rest[0] || !values['data-source'] || !values.environment) {
        throw new Error(
          'Usage: dogu upload-protoset --data-source <id> --environment <id> [--name <name>] <file>.',
        );
      }
      const version = await uploadProtoset({
        baseUrl,
        project: values.project ?? defaultProject,
        dataSource: values['data-source'],
        environment: values.environment,
        ...(values.name === undefined ? {} : { name: values.name }),
        file: rest[0],
        env: process.env,
      });
      process.stdout.write(`${JSON.stringify(version, null, 2)}\n`);
      return 0;
    }
    case 'smoke':
      return smoke({
        baseUrl,
        project: values.project ?? defaultProject,
        environment: values.env!,
        ...(values['echo-url'] === undefined ? {} : { echoUrl: values['echo-url'] }),
        waitReservation: values['wait-reservation']!,
        json: values.json!,
        stdout: (text) => process.stdout.write(text),
      });
    case 'mcp':
      return mcpStdio({
        baseUrl,
        project: values.project ?? defaultProject,
        environment: values.env!,
        ...(process.env.DOGU_TOKEN ? { token: process.env.DOGU_TOKEN } : {}),
        pollSeconds: pollSecondsOf(values['poll-seconds'] ?? process.env.DOGU_MCP_POLL_SECONDS),
        stderr: (text) => process.stderr.write(text),
      });
    case 'audit': {
      const common = {
        baseUrl,
        project: values.project ?? defaultProject,
        stdout: (text: string) => process.stdout.write(text),
        stderr: (text: string) => process.stderr.write(text),
      };
      if (rest[0] === 'verify') {
        return auditVerify({ ...common, ...(values.from === undefined ? {} : { from: values.from }) });
      }
      if (rest[0] === 'export') {
        return auditExport({
          ...common,
          format: values.format ?? 'jsonl',
          ...(values.output === undefined ? {} : { output: values.output }),
          ...(values.since === undefined ? {} : { from: values.since }),
          ...(values.until === undefined ? {} : { to: values.until }),
        });
      }
      throw new Error(
        'Usage: dogu audit verify [--from ENTRY_ID] | dogu audit export [--format F] [-o FILE].',
      );
    }
    case 'schema':
      process.stdout.write(configJsonSchemaText());
      return 0;
    case 'bridge':
      return runBridge(values.config);
    default:
      process.stderr.write(`Unknown command '${command}'.\n\n${usage}`);
      return 2;
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`dogu: ${(error as Error).message}\n`);
  process.exitCode = 1;
}
