/** Secret values and data-source passwords, encrypted at rest (KMS on AWS: decision 0011). */
import type { SecretValues } from '../../domain/secret-values.ts';
import type { ServiceGroup } from '../services.ts';

export const secretValues: ServiceGroup<{ secrets: SecretValues }> = {
  name: 'secrets',
  pick: ({ secrets }) => ({ secrets }),
  async createOnAws() {
    const [{ KMSClient }, { KmsSecretCipher }, { SecretValues }, { requiredEnv }] = await Promise.all([
      import('@aws-sdk/client-kms'),
      import('../../adapters/secrets/kms-cipher.ts'),
      import('../../domain/secret-values.ts'),
      import('../aws-core.ts'),
    ]);
    return {
      secrets: new SecretValues(new KmsSecretCipher(new KMSClient({}), requiredEnv('DOGU_SECRETS_KEY_ID'))),
    };
  },
};
