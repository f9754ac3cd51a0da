/** What Athena and the AWS SDK refuse, said so a user can act on it, naming the statement. */
import { DoguError } from '../../domain/errors.ts';

const credentialErrors = new Set([
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'SignatureDoesNotMatch',
  'ExpiredTokenException',
  'InvalidClientTokenId',
  'CredentialsProviderError',
]);

export function athenaError(title: string, error: unknown): DoguError {
  const name = (error as { name?: string })?.name ?? '';
  const detail = error instanceof Error ? error.message : String(error);
  if (credentialErrors.has(name)) {
    return new DoguError(
      'data_source_error',
      `Statement "${title}": Athena refused the credentials (${name}): check the access key ID and secret access key.`,
    );
  }
  if (name === 'AccessDeniedException') {
    return new DoguError('data_source_error', `Statement "${title}": Athena denied access: ${detail}`);
  }
  if (name === 'InvalidRequestException') {
    return new DoguError('data_source_error', `Statement "${title}": Athena refused the query: ${detail}`);
  }
  if (name === 'TooManyRequestsException') {
    return new DoguError(
      'data_source_error',
      `Statement "${title}": Athena is throttling queries; try again shortly.`,
    );
  }
  return new DoguError(
    'data_source_error',
    `Statement "${title}": Athena could not be reached or failed: ${detail}`,
  );
}

export const athenaTimedOut = (title: string, queryId?: string) =>
  new DoguError(
    'execution_timeout',
    `Statement "${title}": the execution ended (time limit or cancelled) and the query${queryId ? ` ${queryId}` : ''} was stopped on Athena.`,
  );

export const isAbort = (error: unknown) => {
  const name = (error as { name?: string })?.name;
  return name === 'AbortError' || name === 'TimeoutError';
};
