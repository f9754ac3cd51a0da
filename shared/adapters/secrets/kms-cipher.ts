/**
 * Secrets at rest on AWS: KMS Encrypt/Decrypt with the context as the KMS
 * encryption context (logged in CloudTrail, bound to the ciphertext).
 * Secrets are small (≤ 4 KB), so no envelope encryption is needed.
 */
import { DecryptCommand, EncryptCommand, type KMSClient } from '@aws-sdk/client-kms';
import type { SecretCipher } from '../../domain/ports.ts';

const prefix = 'kms:v1:';

export class KmsSecretCipher implements SecretCipher {
  constructor(
    private readonly client: KMSClient,
    private readonly keyId: string,
  ) {}

  async encrypt(plaintext: string, context: Record<string, string>): Promise<string> {
    const { CiphertextBlob } = await this.client.send(
      new EncryptCommand({
        KeyId: this.keyId,
        Plaintext: Buffer.from(plaintext, 'utf8'),
        EncryptionContext: context,
      }),
    );
    if (!CiphertextBlob) throw new Error('KMS returned no ciphertext.');
    return prefix + Buffer.from(CiphertextBlob).toString('base64');
  }

  async decrypt(ciphertext: string, context: Record<string, string>): Promise<string> {
    if (!ciphertext.startsWith(prefix)) throw new Error('The secret is not a KMS ciphertext.');
    const { Plaintext } = await this.client.send(
      new DecryptCommand({
        KeyId: this.keyId,
        CiphertextBlob: Buffer.from(ciphertext.slice(prefix.length), 'base64'),
        EncryptionContext: context,
      }),
    );
    if (!Plaintext) throw new Error('KMS returned no plaintext.');
    return Buffer.from(Plaintext).toString('utf8');
  }
}
