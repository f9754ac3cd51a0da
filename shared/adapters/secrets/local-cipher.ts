/**
 * Secrets at rest in the embedded runtime: AES-256-GCM with a key file in the
 * data directory. The context is the additional authenticated data, so a
 * ciphertext copied to another project, environment or name fails to decrypt.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SecretCipher } from '../../domain/ports.ts';

const prefix = 'local:v1:';

export const contextBytes = (context: Record<string, string>) =>
  Buffer.from(
    JSON.stringify(
      Object.keys(context)
        .sort()
        .map((k) => [k, context[k]]),
    ),
  );

export class LocalSecretCipher implements SecretCipher {
  constructor(private readonly key: Uint8Array) {
    if (key.byteLength !== 32) throw new Error('The secrets key must be 32 bytes.');
  }

  async encrypt(plaintext: string, context: Record<string, string>): Promise<string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(contextBytes(context));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${prefix}${[iv, cipher.getAuthTag(), body].map((b) => b.toString('base64')).join(':')}`;
  }

  async decrypt(ciphertext: string, context: Record<string, string>): Promise<string> {
    const parts = ciphertext.startsWith(prefix) ? ciphertext.slice(prefix.length).split(':') : [];
    if (parts.length !== 3) throw new Error('The secret is not a local ciphertext.');
    const [iv, tag, body] = parts.map((p) => Buffer.from(p, 'base64')) as [Buffer, Buffer, Buffer];
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAAD(contextBytes(context));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  }
}
