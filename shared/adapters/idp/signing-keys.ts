/**
 * Signing keys of the service's own IdP: a key ring with one current key and
 * the retired keys that must stay published until every token they signed has
 * expired. Rotation adds a new key and retires the old one; it never removes a
 * key a verifier may still need.
 *
 * Where the keys live is a port (`SigningKeyStore`):
 * - embedded runtime: `FileSigningKeyStore`, JWKs in `DOGU_DATA_DIR/idp-keys.json`
 *   (mode 0600), created at first start;
 * - AWS: `SecretsManagerSigningKeyStore`, the same JSON document as the string of a
 *   Secrets Manager secret. Lambda containers never create keys there (two cold
 *   starts would race and one key would be lost); the secret is seeded and rotated
 *   by an operator or a rotation job calling `SigningKeyRing.rotate()`.
 */
import { chmod, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  GetSecretValueCommand,
  PutSecretValueCommand,
  ResourceNotFoundException,
  type SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import {
  type CryptoKey,
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
} from 'jose';
import * as z from 'zod';
import {
  type ActiveSigningKey,
  maxStorageIdTokenSeconds,
  ownIdpAlgorithm,
  type SigningKeyRing as SigningKeyRingPort,
} from '../../domain/identity/own-idp.ts';
import type { Clock } from '../../domain/ports.ts';

const storedKeySchema = z.object({
  kid: z.string().min(1),
  alg: z.literal(ownIdpAlgorithm),
  /** The private JWK. It never leaves this module except through `publicJwk`. */
  jwk: z.looseObject({ kty: z.literal('RSA'), n: z.string(), e: z.string(), d: z.string() }),
  createdAt: z.iso.datetime(),
  /** When a newer key took over. */
  retiredAt: z.iso.datetime().optional(),
});
const keyDocumentSchema = z.object({ keys: z.array(storedKeySchema) });

export type StoredSigningKey = z.infer<typeof storedKeySchema>;

export interface SigningKeyStore {
  /** Keys, newest (current) first; empty when none exist yet. */
  load(): Promise<StoredSigningKey[]>;
  save(keys: StoredSigningKey[]): Promise<void>;
}

export function parseKeyDocument(text: string): StoredSigningKey[] {
  return keyDocumentSchema.parse(JSON.parse(text)).keys;
}

const serialize = (keys: StoredSigningKey[]) => `${JSON.stringify({ keys }, null, 2)}\n`;

/** An allow-list, so no private member (d, p, q, dp, dq, qi, oth) can ever be published. */
export function publicJwk(key: StoredSigningKey): JWK {
  return { kty: 'RSA', n: key.jwk.n, e: key.jwk.e, kid: key.kid, use: 'sig', alg: key.alg };
}

export async function generateSigningKey(now: Date): Promise<StoredSigningKey> {
  const { privateKey } = await generateKeyPair(ownIdpAlgorithm, { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  // The RFC 7638 thumbprint: a kid derived from the key cannot collide with another key's.
  const kid = await calculateJwkThumbprint(jwk);
  const parsed = storedKeySchema.parse({ kid, alg: ownIdpAlgorithm, jwk, createdAt: now.toISOString() });
  return parsed;
}

export interface SigningKeyRingOptions {
  /** How long a loaded key set is reused before the store is read again (other containers may rotate). */
  reloadMs?: number;
  /** Make a first key when the store is empty (embedded runtime only; see the module comment). */
  createIfEmpty?: boolean;
}

export class SigningKeyRing implements SigningKeyRingPort {
  readonly #store: SigningKeyStore;
  readonly #clock: Clock;
  readonly #reloadMs: number;
  readonly #createIfEmpty: boolean;
  #loaded: { keys: StoredSigningKey[]; at: number } | undefined;
  readonly #imported = new Map<string, Promise<CryptoKey>>();

  constructor(store: SigningKeyStore, clock: Clock, options: SigningKeyRingOptions = {}) {
    this.#store = store;
    this.#clock = clock;
    this.#reloadMs = options.reloadMs ?? 5 * 60_000;
    this.#createIfEmpty = options.createIfEmpty ?? false;
  }

  /**
   * How long a retired key stays published: the longest token lifetime, plus the time a
   * container with a stale key set may still sign with it, plus clock skew.
   */
  get retentionMs(): number {
    return maxStorageIdTokenSeconds * 1000 + this.#reloadMs + 5 * 60_000;
  }

  async current(): Promise<ActiveSigningKey> {
    const [newest] = await this.#keys();
    const key = newest!;
    let imported = this.#imported.get(key.kid);
    if (!imported) {
      imported = importJWK(key.jwk, key.alg) as Promise<CryptoKey>;
      this.#imported.set(key.kid, imported);
    }
    return { kid: key.kid, key: await imported };
  }

  async publicKeys(): Promise<JWK[]> {
    const now = this.#clock.now().getTime();
    return (await this.#keys()).filter((key) => this.#published(key, now)).map(publicJwk);
  }

  /** Adds a new current key and retires the previous one; drops keys no token can need any more. */
  async rotate(): Promise<{ kid: string }> {
    const now = this.#clock.now();
    const existing = await this.#store.load();
    const fresh = await generateSigningKey(now);
    const kept = existing
      .map((key) => (key.retiredAt ? key : { ...key, retiredAt: now.toISOString() }))
      .filter((key) => this.#published(key, now.getTime()));
    const keys = [fresh, ...kept];
    await this.#store.save(keys);
    this.#loaded = { keys, at: now.getTime() };
    return { kid: fresh.kid };
  }

  #published(key: StoredSigningKey, now: number): boolean {
    return !key.retiredAt || Date.parse(key.retiredAt) + this.retentionMs > now;
  }

  async #keys(): Promise<StoredSigningKey[]> {
    const now = this.#clock.now().getTime();
    if (this.#loaded && now - this.#loaded.at < this.#reloadMs) return this.#loaded.keys;
    let keys = await this.#store.load();
    if (keys.length === 0) {
      if (!this.#createIfEmpty) {
        throw new Error('The IdP has no signing key: seed the key store (docs/authentication.md).');
      }
      keys = [await generateSigningKey(this.#clock.now())];
      await this.#store.save(keys);
    }
    this.#loaded = { keys, at: now };
    return keys;
  }
}

/** `<dataDir>/idp-keys.json`, readable only by this user. One process owns the data directory. */
export class FileSigningKeyStore implements SigningKeyStore {
  readonly path: string;

  constructor(dataDir: string) {
    this.path = join(dataDir, 'idp-keys.json');
  }

  async load(): Promise<StoredSigningKey[]> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return [];
      throw error;
    }
    // A copied or restored file may have lost its mode: private keys must not stay readable by others.
    if (((await stat(this.path)).mode & 0o077) !== 0) await chmod(this.path, 0o600);
    return parseKeyDocument(text);
  }

  async save(keys: StoredSigningKey[]): Promise<void> {
    // Write then rename, so a crash never leaves a half-written key file behind.
    const temporary = `${this.path}.${process.pid}.tmp`;
    await writeFile(temporary, serialize(keys), { mode: 0o600 });
    await chmod(temporary, 0o600); // the umask cannot widen it, but an existing temporary file might have
    await rename(temporary, this.path);
  }
}

/** The key document as the string of a Secrets Manager secret (AWS runtime). */
export class SecretsManagerSigningKeyStore implements SigningKeyStore {
  readonly #client: SecretsManagerClient;
  readonly #secretId: string;

  constructor(client: SecretsManagerClient, secretId: string) {
    this.#client = client;
    this.#secretId = secretId;
  }

  async load(): Promise<StoredSigningKey[]> {
    try {
      const secret = await this.#client.send(new GetSecretValueCommand({ SecretId: this.#secretId }));
      // A secret created by the stack without a value yet, or with a placeholder, counts as empty.
      const text = secret.SecretString?.trim();
      if (!text || text === '{}') return [];
      return parseKeyDocument(text);
    } catch (error) {
      if (error instanceof ResourceNotFoundException) return [];
      throw error;
    }
  }

  async save(keys: StoredSigningKey[]): Promise<void> {
    await this.#client.send(
      new PutSecretValueCommand({ SecretId: this.#secretId, SecretString: serialize(keys) }),
    );
  }
}
