import { badRequest } from '../shared/domain/errors.ts';
import { parseUploadParams, uploadWithToken } from '../shared/domain/files/token-upload.ts';
import { verifyUploadToken } from '../shared/domain/files/upload-tokens.ts';
import { originOf } from '../shared/http/audit-recording.ts';
import { defineRoutes } from '../shared/http/handler.ts';
import { multipartBody } from '../shared/http/multipart.ts';
import { connectorFiles } from '../shared/runtime/groups/connector-files.ts';
import { fileStorage } from '../shared/runtime/groups/file-storage.ts';
import { compose } from '../shared/runtime/services.ts';

/**
 * Beyond any kind's file limit: a larger part is cut here and refused with 413. API Gateway and
 * Lambda refuse larger bodies before this runs anyway (6 MB payload).
 */
const maxPartBytes = 8 * 1024 * 1024;

/**
 * POST /v1/upload_protoset (spec 4.3): header X-Service-Grpc-Api-Access-Token; multipart parts
 * `params` (JSON: environmentId, resourceId, name) and `file`. The token is checked first.
 */
export const handler = defineRoutes(
  {
    uploadProtoset: async (request, services) => {
      const token = await verifyUploadToken(
        services,
        request.event.headers['x-service-grpc-api-access-token'],
      );
      const body = await multipartBody(request.event, { maxFileBytes: maxPartBytes });
      const params = parseUploadParams(body.fields.params);
      const file = body.files.find((f) => f.field === 'file');
      if (!file)
        throw badRequest("The multipart part 'file' is missing.", [{ pointer: '#/file', detail: 'missing' }]);
      const version = await uploadWithToken(services, {
        token,
        params,
        bytes: file.bytes,
        // A cut part is longer than any kind allows: 413 once the data source's kind is known.
        truncated: file.truncated,
        origin: originOf(request.event),
      });
      return {
        status: 201,
        body: {
          ...version.description,
          versionId: version.id,
          name: version.name ?? null,
          dataSourceId: version.dataSourceId,
          environmentId: version.environmentId,
          uploadedAt: version.uploadedAt,
          size: version.size,
          sha256: version.sha256,
        },
      };
    },
  },
  compose(connectorFiles, fileStorage),
);
