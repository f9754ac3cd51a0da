/**
 * Decrypts secrets for a run. Each ciphertext is decrypted once per container:
 * a changed secret has a new ciphertext, so the memo can never go stale.
 */
import type { SecretCipher } from './ports.ts';

const maxRemembered = 1_000;

export class SecretValues {
  private readonly plaintexts = new Map<string, Promise<string>>();

  constructor(private readonly cipher: SecretCipher) {}

  decrypt(ciphertext: string, context: Record<string, string>): Promise<string> {
    const key = `${ciphertext}|${JSON.stringify(context)}`;
    let value = this.plaintexts.get(key);
    if (!value) {
      value = this.cipher.decrypt(ciphertext, context);
      if (this.plaintexts.size >= maxRemembered) this.plaintexts.delete(this.plaintexts.keys().next().value!);
      this.plaintexts.set(key, value);
      value.catch(() => this.plaintexts.delete(key));
    }
    return value;
  }

  encrypt(plaintext: string, context: Record<string, string>): Promise<string> {
    return this.cipher.encrypt(plaintext, context);
  }
}

export const secretContext = (projectId: string, environmentId: string, name: string) => ({
  project: projectId,
  environment: environmentId,
  secret: name,
});

/** Binds a data source's secret field (a password, a key) to where it belongs. */
export const secretFieldContext = (
  projectId: string,
  dataSourceId: string,
  environmentId: string,
  field: string,
) => ({
  project: projectId,
  dataSource: dataSourceId,
  environment: environmentId,
  field,
});
