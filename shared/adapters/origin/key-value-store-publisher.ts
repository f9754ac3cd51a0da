/**
 * CloudFront's copy of the origin-verify value (decision 0171): one key of a CloudFront KeyValueStore,
 * which the API paths' viewer-request function reads at the edge (infra/console-hosting.ts). Writing
 * a key needs the store's current ETag (DescribeKeyValueStore) as PutKey's IfMatch, so two writers
 * never overwrite each other unseen: the loser gets a ConflictException and Secrets Manager retries
 * the rotation step.
 *
 * The store's API is signed with SigV4A; importing `@aws-sdk/signature-v4a` registers that signer
 * with the SDK (without it every call fails before it is sent).
 */
import '@aws-sdk/signature-v4a';
import {
  type CloudFrontKeyValueStoreClient,
  DescribeKeyValueStoreCommand,
  GetKeyCommand,
  PutKeyCommand,
} from '@aws-sdk/client-cloudfront-keyvaluestore';
import { originVerifyStoreKey } from '../../http/viewer-ip.ts';
import type { OriginHeaderPublisher } from './origin-verify-rotation.ts';

export class KeyValueStorePublisher implements OriginHeaderPublisher {
  readonly #client: CloudFrontKeyValueStoreClient;
  readonly #storeArn: string;
  readonly #key: string;

  constructor(client: CloudFrontKeyValueStoreClient, storeArn: string, key = originVerifyStoreKey) {
    this.#client = client;
    this.#storeArn = storeArn;
    this.#key = key;
  }

  async publish(value: string): Promise<void> {
    const { ETag } = await this.#client.send(new DescribeKeyValueStoreCommand({ KvsARN: this.#storeArn }));
    if (!ETag) throw new Error(`The key value store ${this.#storeArn} answered without an ETag.`);
    await this.#client.send(
      new PutKeyCommand({ KvsARN: this.#storeArn, Key: this.#key, Value: value, IfMatch: ETag }),
    );
  }

  async current(): Promise<string | undefined> {
    try {
      const answer = await this.#client.send(new GetKeyCommand({ KvsARN: this.#storeArn, Key: this.#key }));
      return answer.Value;
    } catch (error) {
      // Nothing published yet (a new store).
      if ((error as Error).name === 'ResourceNotFoundException') return undefined;
      throw error;
    }
  }
}
