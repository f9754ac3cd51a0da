import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DoguError } from '../../domain/errors.ts';
import { firstUnkeptNumber } from '../../domain/exact-numbers.ts';

/** Document client with the marshalling options the store relies on. */
export function createDocumentClient(config: DynamoDBClientConfig = {}): DynamoDBDocumentClient {
  const client = DynamoDBDocumentClient.from(new DynamoDBClient(config), {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  // Decision 0025 in the store: a number that would not be kept exactly is refused by name before it
  // is marshalled (the edge refuses such input first; this catches any path that did not).
  client.middlewareStack.add(
    (next) => async (args) => {
      const unkept = firstUnkeptNumber(args.input);
      if (unkept) {
        throw new DoguError(
          'argument_invalid',
          `The value ${unkept.literal} at ${unkept.pointer} cannot be stored: it ${unkept.problem}`,
        );
      }
      return next(args);
    },
    { step: 'initialize', name: 'keptNumbersOnly' },
  );
  return client;
}
