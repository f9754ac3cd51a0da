import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { KmsSecretCipher } from '../../shared/adapters/secrets/kms-cipher.ts';
import { LocalSecretCipher } from '../../shared/adapters/secrets/local-cipher.ts';

const context = { project: 'demo', environment: 'production', secret: 'api_key' };

describe('LocalSecretCipher (AES-256-GCM)', () => {
  const cipher = new LocalSecretCipher(new Uint8Array(32).fill(9));

  it('round-trips, with a fresh nonce each time, and never contains the plaintext', async () => {
    const a = await cipher.encrypt('sk-live-123', context);
    const b = await cipher.encrypt('sk-live-123', context);
    expect(a).not.toBe(b);
    expect(a.startsWith('local:v1:')).toBe(true);
    expect(a).not.toContain('sk-live');
    expect(await cipher.decrypt(a, context)).toBe('sk-live-123');
  });

  it('refuses a ciphertext moved to another context, a tampered one, and another key', async () => {
    const sealed = await cipher.encrypt('sk-live-123', context);
    await expect(cipher.decrypt(sealed, { ...context, environment: 'development' })).rejects.toThrow();
    const [prefix, iv, tag, body] = [sealed.slice(0, 9), ...sealed.slice(9).split(':')] as [
      string,
      string,
      string,
      string,
    ];
    const flipped = Buffer.from(body, 'base64');
    flipped[0]! ^= 1;
    await expect(
      cipher.decrypt(`${prefix}${iv}:${tag}:${flipped.toString('base64')}`, context),
    ).rejects.toThrow();
    await expect(
      new LocalSecretCipher(new Uint8Array(32).fill(1)).decrypt(sealed, context),
    ).rejects.toThrow();
  });

  it('wants a 32-byte key', () => {
    expect(() => new LocalSecretCipher(new Uint8Array(16))).toThrow('32 bytes');
  });
});

describe('KmsSecretCipher', () => {
  const kms = mockClient(KMSClient);
  afterEach(() => kms.reset());
  const keyId = 'arn:aws:kms:ap-northeast-1:123456789012:key/abcd';

  it('encrypts with the key and the context as encryption context', async () => {
    kms.on(EncryptCommand).resolves({ CiphertextBlob: new Uint8Array([1, 2, 3]) });
    const sealed = await new KmsSecretCipher(new KMSClient({}), keyId).encrypt('sk-live-123', context);
    expect(sealed).toBe(`kms:v1:${Buffer.from([1, 2, 3]).toString('base64')}`);
    const calls = kms.commandCalls(EncryptCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      KeyId: keyId,
      Plaintext: Buffer.from('sk-live-123'),
      EncryptionContext: context,
    });
  });

  it('decrypts with the same key and context', async () => {
    kms.on(DecryptCommand).resolves({ Plaintext: Buffer.from('sk-live-123') });
    const plain = await new KmsSecretCipher(new KMSClient({}), keyId).decrypt('kms:v1:AQID', context);
    expect(plain).toBe('sk-live-123');
    expect(kms.commandCalls(DecryptCommand)[0]!.args[0].input).toEqual({
      KeyId: keyId,
      CiphertextBlob: Buffer.from([1, 2, 3]),
      EncryptionContext: context,
    });
  });

  it('refuses a ciphertext of another kind without calling KMS', async () => {
    await expect(
      new KmsSecretCipher(new KMSClient({}), keyId).decrypt('local:v1:x:y:z', context),
    ).rejects.toThrow('not a KMS ciphertext');
    expect(kms.calls()).toHaveLength(0);
  });
});
