/** Uploaded data-source files (protosets): versions and upload tokens in DynamoDB, blobs in S3. */
import type { FileStorage } from '../../domain/files/model.ts';
import type { BlobStore } from '../../domain/ports.ts';
import type { ServiceGroup } from '../services.ts';

export const fileStorage: ServiceGroup<{ files: FileStorage }> = {
  name: 'file-storage',
  pick: ({ files }) => ({ files }),
  async createOnAws() {
    const [{ DynamoDbFileStore }, { requiredEnv, sharedDocumentClient }] = await Promise.all([
      import('../../adapters/dynamodb/dynamodb-file-store.ts'),
      import('../aws-core.ts'),
    ]);
    const records = new DynamoDbFileStore(sharedDocumentClient(), requiredEnv('DOGU_TABLE_NAME'));
    // The S3 client (and its SDK) is loaded on the first blob call, once per container. Only
    // functions that keep or read uploaded files get the bucket's name (and its grants).
    let store: Promise<BlobStore> | undefined;
    const s3 = () => {
      store ??= Promise.all([
        import('@aws-sdk/client-s3'),
        import('../../adapters/blobs/s3-blob-store.ts'),
      ]).then(
        ([{ S3Client }, { S3BlobStore }]) =>
          new S3BlobStore(new S3Client({}), requiredEnv('DOGU_BLOB_BUCKET')),
      );
      store.catch(() => {
        store = undefined;
      });
      return store;
    };
    const blobs: BlobStore = {
      put: async (key, bytes) => (await s3()).put(key, bytes),
      get: async (key) => (await s3()).get(key),
      delete: async (key) => (await s3()).delete(key),
    };
    return { files: { blobs, versions: records, uploadTokens: records } };
  },
};
