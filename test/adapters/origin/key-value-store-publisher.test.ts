/**
 * CloudFront's copy of the origin-verify value in a KeyValueStore (decision 0171), against the
 * store's API (mocked, exact requests): PutKey carries the ETag DescribeKeyValueStore answered.
 */
import { Readable } from 'node:stream';
import {
  CloudFrontKeyValueStoreClient,
  ConflictException,
  DescribeKeyValueStoreCommand,
  GetKeyCommand,
  PutKeyCommand,
  ResourceNotFoundException,
} from '@aws-sdk/client-cloudfront-keyvaluestore';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { KeyValueStorePublisher } from '../../../shared/adapters/origin/key-value-store-publisher.ts';
import { originVerifyStoreKey } from '../../../shared/http/viewer-ip.ts';

const KvsARN = 'arn:aws:cloudfront::123456789012:key-value-store/5f6a1c2e-0b4d-4e8f-9a7b-1c2d3e4f5a6b';
const client = new CloudFrontKeyValueStoreClient({ region: 'us-east-1' });
/** This client only: the wire test below sends through the SDK's real stack. */
const store = mockClient(client);
const publisher = new KeyValueStorePublisher(client, KvsARN);
/** Every request sent, in order, as [command, input]. */
const sent = () => store.calls().map((call) => [call.args[0].constructor.name, call.args[0].input]);

describe('the KeyValueStore publisher of the origin-verify value', () => {
  afterEach(() => store.reset());

  it('writes the value under the origin-verify key with the ETag the store just answered', async () => {
    store
      .on(DescribeKeyValueStoreCommand)
      .resolves({ KvsARN, ETag: 'KV1X2Y3', ItemCount: 1, TotalSizeInBytes: 60, Created: new Date() });
    store.on(PutKeyCommand).resolves({ ETag: 'KV4Z5', ItemCount: 1, TotalSizeInBytes: 60 });
    await publisher.publish('n3wV4lue');
    expect(originVerifyStoreKey).toBe('origin-verify');
    expect(sent()).toEqual([
      ['DescribeKeyValueStoreCommand', { KvsARN }],
      ['PutKeyCommand', { KvsARN, Key: 'origin-verify', Value: 'n3wV4lue', IfMatch: 'KV1X2Y3' }],
    ]);
  });

  it('lets a conflicting write fail (the rotation step is retried) and never writes without an ETag', async () => {
    store
      .on(DescribeKeyValueStoreCommand)
      .resolves({ KvsARN, ETag: 'KVold', ItemCount: 1, TotalSizeInBytes: 60, Created: new Date() });
    store.on(PutKeyCommand).rejects(new ConflictException({ message: 'ETag mismatch', $metadata: {} }));
    await expect(publisher.publish('v')).rejects.toThrow('ETag mismatch');

    store.reset();
    store
      .on(DescribeKeyValueStoreCommand)
      .resolves({ KvsARN, ItemCount: 0, TotalSizeInBytes: 0, Created: new Date() });
    await expect(publisher.publish('v')).rejects.toThrow(/without an ETag/);
    expect(sent().map(([name]) => name)).toEqual(['DescribeKeyValueStoreCommand']);
  });

  it('reads back what the store holds, and nothing from a store never written', async () => {
    store
      .on(GetKeyCommand, { KvsARN, Key: 'origin-verify' })
      .resolves({ Key: 'origin-verify', Value: 'n3wV4lue', ItemCount: 1, TotalSizeInBytes: 60 });
    expect(await publisher.current()).toBe('n3wV4lue');
    expect(sent()).toEqual([['GetKeyCommand', { KvsARN, Key: 'origin-verify' }]]);

    store.reset();
    store
      .on(GetKeyCommand)
      .rejects(new ResourceNotFoundException({ message: 'Key not found', $metadata: {} }));
    expect(await publisher.current()).toBeUndefined();
    store.reset();
    store.on(GetKeyCommand).rejects(new Error('AccessDenied'));
    await expect(publisher.current()).rejects.toThrow('AccessDenied');
  });
});

describe('the store API on the wire', () => {
  it('is signed with SigV4A (the signer the adapter registers), PutKey carrying the ETag as If-Match', async () => {
    const requests: { method: string; path: string; headers: Record<string, string> }[] = [];
    // The SDK's own HTTP layer is replaced by a recorder: everything up to sending (endpoint, body,
    // signature) is the SDK's real code.
    const recording = new CloudFrontKeyValueStoreClient({
      region: 'ap-northeast-1',
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'not-a-real-key' },
      requestHandler: {
        handle: async (request: { method: string; path: string; headers: Record<string, string> }) => {
          requests.push(request);
          const body = JSON.stringify({ KvsARN, ItemCount: 0, TotalSizeInBytes: 0, Created: 1 });
          return {
            response: {
              statusCode: 200,
              headers: { 'content-type': 'application/json', etag: 'KVe7ag' },
              body: Readable.from([Buffer.from(body)]),
            },
          };
        },
      } as never,
    });
    await new KeyValueStorePublisher(recording, KvsARN).publish('n3wV4lue');
    expect(requests.map((r) => [r.method, decodeURIComponent(r.path)])).toEqual([
      ['GET', `/key-value-stores/${KvsARN}`],
      ['PUT', `/key-value-stores/${KvsARN}/keys/origin-verify`],
    ]);
    for (const request of requests) {
      expect(request.headers.authorization).toMatch(
        /^AWS4-ECDSA-P256-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/cloudfront-keyvaluestore\/aws4_request, /,
      );
      expect(request.headers['x-amz-region-set']).toBe('*');
    }
    expect(requests[1]!.headers['if-match']).toBe('KVe7ag');
    expect(requests[1]!.headers.authorization).toContain('if-match');
  });
});
