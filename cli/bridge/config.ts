/**
 * The bridge agent's configuration: a JSON file (`dogu bridge --config FILE`, or
 * DOGU_BRIDGE_CONFIG), every field checked before the agent listens. Paths are read relative to
 * the file. Nothing here is a secret except the TLS key, which is read from its own file.
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import * as z from 'zod';
import { parseTarget } from '../../shared/connectors/network/bridge-protocol.ts';

const target = z.string().refine((text) => parseTarget(text) !== undefined, {
  message: 'must be host:port (IPv6 in brackets), e.g. db.internal:5432',
});

export const bridgeConfigSchema = z.strictObject({
  /** The audience Dogu's tokens must name; registered under the same id in the project's settings. */
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'must be 1-63 lower-case letters, digits, - or _'),
  /** The Dogu IdP this bridge trusts (its `iss`), e.g. https://dogu.example.com/idp. */
  issuer: z.url({ protocol: /^https?$/ }),
  /** Default: the issuer + /jwks. */
  jwksUri: z.url({ protocol: /^https?$/ }).optional(),
  host: z.string().default('0.0.0.0'),
  port: z.number().int().min(0).max(65_535).default(8443),
  /** Files of the certificate (chain) and key; DOGU_BRIDGE_TLS_CERT and _KEY (PEM text) take precedence. */
  tls: z.strictObject({ certFile: z.string(), keyFile: z.string() }).optional(),
  /** The only targets a tunnel may open, `host:port` each. Nothing else is reachable. */
  allow: z.array(target).min(1).max(1000),
  /** Names only the bridge knows (like /etc/hosts): `{ "db.internal": "10.0.1.5" }`. */
  hosts: z.record(z.string(), z.string()).default({}),
  /** A target that leaves a request unanswered this long gets its tunnel closed. */
  timeoutMs: z.number().int().min(100).max(3_600_000).default(30_000),
  maxTunnels: z.number().int().min(1).max(100_000).default(512),
});

export type BridgeConfigInput = z.input<typeof bridgeConfigSchema>;
export interface BridgeConfig extends z.output<typeof bridgeConfigSchema> {
  /** The PEM texts read from `tls`. */
  certificate: { cert: string; key: string };
}

type Env = Record<string, string | undefined>;

export async function loadBridgeConfig(file: string, env: Env = {}): Promise<BridgeConfig> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(`The bridge configuration ${file} could not be read: ${(error as Error).message}`);
  }
  return bridgeConfigFrom(raw, dirname(resolve(file)), env);
}

export async function bridgeConfigFrom(raw: unknown, baseDir: string, env: Env = {}): Promise<BridgeConfig> {
  const parsed = bridgeConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.') || '(file)'}: ${issue.message}`,
    );
    throw new Error(`The bridge configuration is not valid:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  const read = (path: string) => readFile(resolve(baseDir, path), 'utf8');
  const fromEnv = env.DOGU_BRIDGE_TLS_CERT && env.DOGU_BRIDGE_TLS_KEY;
  if (!fromEnv && !config.tls)
    throw new Error(
      'The bridge needs a TLS certificate: tls.certFile and tls.keyFile, or DOGU_BRIDGE_TLS_CERT and _KEY.',
    );
  const [cert, key] = fromEnv
    ? [env.DOGU_BRIDGE_TLS_CERT!, env.DOGU_BRIDGE_TLS_KEY!]
    : await Promise.all([read(config.tls!.certFile), read(config.tls!.keyFile)]);
  return { ...config, allow: config.allow.map(normalTarget), certificate: { cert, key } };
}

function normalTarget(text: string): string {
  const { host, port } = parseTarget(text)!;
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}
