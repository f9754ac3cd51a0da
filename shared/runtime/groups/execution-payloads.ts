/**
 * Execution payloads too large to record or answer inline (decision 0056): the payload bucket on AWS
 * (DOGU_PAYLOAD_BUCKET; the S3 SDK loads on the first large payload), `<dataDir>/payloads` locally.
 */
import type { PayloadStore } from '../../domain/ports.ts';
import type { ServiceGroup } from '../services.ts';

export const executionPayloads: ServiceGroup<{ payloads: PayloadStore }> = {
  name: 'execution-payloads',
  pick: ({ payloads }) => ({ payloads }),
  async createOnAws() {
    const { requiredEnv } = await import('../aws-core.ts');
    const bucket = requiredEnv('DOGU_PAYLOAD_BUCKET');
    let store: Promise<PayloadStore> | undefined;
    const s3 = () => {
      store ??= Promise.all([
        import('@aws-sdk/client-s3'),
        import('../../adapters/blobs/s3-payload-store.ts'),
      ]).then(([{ S3Client }, { S3PayloadStore }]) => new S3PayloadStore(new S3Client({}), bucket));
      store.catch(() => {
        store = undefined;
      });
      return store;
    };
    return {
      payloads: {
        put: async (key, bytes) => (await s3()).put(key, bytes),
        get: async (key) => (await s3()).get(key),
        downloadUrl: async (key, seconds) => (await s3()).downloadUrl!(key, seconds),
      },
    };
  },
};
