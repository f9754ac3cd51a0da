/**
 * Upload tokens of a project (spec 4.3: the `X-Service-Grpc-Api-Access-Token` of the protoset
 * upload API; docs/decisions/0034). A token is `dogu_<secret>.<tokenId>`: 256 random bits, shown
 * once when it is created or rotated. Only the SHA-256 of the secret is stored; a presented token
 * is found by its id and its hash compared in constant time. Missing, unknown, rotated-away and
 * revoked tokens all get the same 401.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { DoguError, notFound, unauthorized } from '../errors.ts';
import { authorize } from '../manage/access.ts';
import type { Principal } from '../model.ts';
import type { Clock, IdGenerator, Store } from '../ports.ts';
import type { UploadToken, UploadTokenStore } from './model.ts';

export interface UploadTokenDeps {
  store: Store;
  files: { uploadTokens: UploadTokenStore };
  clock: Clock;
  ids: IdGenerator;
}

const tokenShape = /^dogu_([A-Za-z0-9_-]{43})\.(ut_[0-9a-f]{32})$/;
const prefixLength = 'dogu_'.length + 6;
export const maxTokenNameLength = 64;

const hashOf = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

function newSecret(tokenId: string) {
  const secret = randomBytes(32).toString('base64url');
  const token = `dogu_${secret}.${tokenId}`;
  return { token, secretHash: hashOf(secret), prefix: token.slice(0, prefixLength) };
}

/** What anyone sees of a token after its creation: never the token, never its hash. */
export function presentUploadToken(t: UploadToken) {
  return {
    id: t.id,
    name: t.name,
    prefix: t.prefix,
    createdAt: t.createdAt,
    createdBy: t.createdBy,
    ...(t.rotatedAt ? { rotatedAt: t.rotatedAt } : {}),
    lastUsedAt: t.lastUsedAt ?? null,
  };
}

function checkName(name: unknown): string {
  const fail = (detail: string) =>
    new DoguError('invalid_definition', `#/name: ${detail}`, { errors: [{ pointer: '#/name', detail }] });
  if (typeof name !== 'string' || name.trim() === '') throw fail('a name is required');
  if (name.trim().length > maxTokenNameLength) throw fail(`must be at most ${maxTokenNameLength} characters`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(name)) throw fail('must not contain control characters');
  return name.trim();
}

export async function createUploadToken(
  deps: UploadTokenDeps,
  principal: Principal,
  projectId: string,
  input: { name?: unknown },
) {
  await authorize(deps.store, principal, projectId, 'manage_project');
  const id = deps.ids.next('ut');
  const { token, secretHash, prefix } = newSecret(id);
  const record: UploadToken = {
    id,
    projectId,
    name: checkName(input.name),
    prefix,
    secretHash,
    createdAt: deps.clock.now().toISOString(),
    createdBy: { id: principal.id, email: principal.email },
  };
  await deps.files.uploadTokens.createUploadToken(record);
  return { ...presentUploadToken(record), token };
}

export async function listUploadTokens(deps: UploadTokenDeps, principal: Principal, projectId: string) {
  await authorize(deps.store, principal, projectId, 'manage_project');
  const tokens = await deps.files.uploadTokens.listUploadTokens(projectId);
  return tokens.sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map(presentUploadToken);
}

/** A new secret for the same token: the old one stops working at once. */
export async function rotateUploadToken(
  deps: UploadTokenDeps,
  principal: Principal,
  projectId: string,
  tokenId: string,
) {
  await authorize(deps.store, principal, projectId, 'manage_project');
  const existing = await deps.files.uploadTokens.getUploadToken(projectId, tokenId);
  if (!existing) throw notFound('Upload token', tokenId);
  const { token, secretHash, prefix } = newSecret(tokenId);
  const record: UploadToken = { ...existing, secretHash, prefix, rotatedAt: deps.clock.now().toISOString() };
  if (!(await deps.files.uploadTokens.replaceUploadToken(record))) throw notFound('Upload token', tokenId);
  return { ...presentUploadToken(record), token };
}

export async function revokeUploadToken(
  deps: UploadTokenDeps,
  principal: Principal,
  projectId: string,
  tokenId: string,
) {
  await authorize(deps.store, principal, projectId, 'manage_project');
  if (!(await deps.files.uploadTokens.deleteUploadToken(projectId, tokenId)))
    throw notFound('Upload token', tokenId);
}

const refused = () =>
  unauthorized('A valid upload token is required in the X-Service-Grpc-Api-Access-Token header.');

/** The token a request presents, or the one 401 every kind of bad token gets. */
export async function verifyUploadToken(
  deps: Pick<UploadTokenDeps, 'files' | 'clock'>,
  presented: string | undefined,
): Promise<UploadToken> {
  const match = tokenShape.exec(presented?.trim() ?? '');
  if (!match) throw refused();
  const [, secret, tokenId] = match as unknown as [string, string, string];
  const stored = await deps.files.uploadTokens.findUploadToken(tokenId);
  const expected = Buffer.from(stored?.secretHash ?? '0'.repeat(64), 'hex');
  const actual = Buffer.from(hashOf(secret), 'hex');
  if (!stored || expected.length !== actual.length || !timingSafeEqual(expected, actual)) throw refused();
  await deps.files.uploadTokens
    .touchUploadToken(stored.projectId, stored.id, deps.clock.now().toISOString())
    .catch(() => {});
  return stored;
}
