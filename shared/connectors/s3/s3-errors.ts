/** S3's errors in words a user can act on: what was missing, or which permission was refused. */
import { S3ServiceException } from '@aws-sdk/client-s3';
import { DoguError } from '../../domain/errors.ts';
import type { StorageOperation } from '../object-storage/action.ts';

/** Spec 2.3: the permission each operation needs. */
export const s3PermissionOf = (operation: StorageOperation, method: 'GET' | 'PUT'): string =>
  operation === 'upload' || (operation === 'signed-url' && method === 'PUT')
    ? 's3:PutObject'
    : operation === 'list'
      ? 's3:ListBucket'
      : 's3:GetObject';

export function s3Failure(
  error: unknown,
  place: { bucket: string; objectKey: string; permission: string },
): DoguError {
  if (error instanceof DoguError) return error;
  if (error instanceof Error && error.name === 'AbortError')
    return new DoguError('execution_timeout', 'The S3 request was cancelled at the time limit.');
  if (!(error instanceof S3ServiceException)) {
    const message = error instanceof Error ? error.message : String(error);
    return new DoguError('data_source_error', `S3 could not be reached: ${message}`);
  }
  const status = error.$metadata.httpStatusCode;
  const object = `'${place.objectKey}' in bucket '${place.bucket}'`;
  switch (error.name) {
    case 'NoSuchBucket':
      return new DoguError('not_found', `Bucket '${place.bucket}' does not exist.`);
    case 'NoSuchKey':
    case 'NotFound':
      return new DoguError('not_found', `Object ${object} does not exist.`);
    case 'AccessDenied':
    case 'Forbidden':
    case 'AllAccessDisabled':
      return new DoguError(
        'forbidden',
        `S3 refused access to ${place.objectKey ? object : `bucket '${place.bucket}'`}: the credentials need ${place.permission}${place.permission === 's3:GetObject' ? ' (and s3:ListBucket to tell a missing object from a refused one)' : ''}.`,
      );
    case 'InvalidAccessKeyId':
      return new DoguError('data_source_error', 'S3 does not know the access key ID.');
    case 'SignatureDoesNotMatch':
      return new DoguError('data_source_error', 'S3 refused the signature: check the secret access key.');
    case 'ExpiredToken':
    case 'TokenRefreshRequired':
      return new DoguError('data_source_error', 'The S3 credentials have expired; run the action again.');
    case 'PermanentRedirect':
    case 'AuthorizationHeaderMalformed':
      return new DoguError(
        'data_source_error',
        `Bucket '${place.bucket}' is in another region than the data source's: ${error.message}`,
      );
    default:
      return new DoguError(
        'data_source_error',
        `S3 answered ${error.name}${status ? ` (HTTP ${status})` : ''}: ${error.message}`,
      );
  }
}
