import * as z from 'zod';
import { DoguError } from '../shared/domain/errors.ts';
import * as fileVersions from '../shared/domain/manage/file-versions.ts';
import { defineRoutes, type HttpRequest } from '../shared/http/handler.ts';
import { connectorFiles } from '../shared/runtime/groups/connector-files.ts';
import { fileStorage } from '../shared/runtime/groups/file-storage.ts';
import { compose } from '../shared/runtime/services.ts';

/** The console's upload: JSON with the file base64-encoded (docs/api.md). */
export const fileUploadSchema = z.object({
  name: z.string().nullish(),
  contentBase64: z.string().min(1, 'the file is empty'),
});
export const filePinSchema = z.object({ versionId: z.string().min(1).nullable() });

const base64Shape = /^[A-Za-z0-9+/]*={0,2}$/;

function decodeBase64(text: string): Uint8Array {
  const compact = text.replace(/\s+/g, '');
  if (compact.length % 4 !== 0 || !base64Shape.test(compact)) {
    throw new DoguError('invalid_definition', '#/contentBase64: is not base64', {
      errors: [{ pointer: '#/contentBase64', detail: 'is not base64' }],
    });
  }
  return new Uint8Array(Buffer.from(compact, 'base64'));
}

const fileTarget = (request: HttpRequest) => ({
  projectId: request.pathParameters.projectId!,
  dataSourceId: request.pathParameters.dataSourceId!,
  environmentId: request.pathParameters.environmentId!,
});

/**
 * …/data-sources/{dataSourceId}/environments/{environmentId}/files[…]: a data source's uploaded file
 * versions (protosets): list, upload from the console, delete, pin (docs/grpc.md).
 */
export const handler = defineRoutes(
  {
    listFileVersions: async (request, services) => ({
      status: 200,
      body: await fileVersions.listFileVersions(services, request.caller(), fileTarget(request)),
    }),
    uploadFileVersion: async (request, services) => {
      const input = request.parseBody(fileUploadSchema);
      const version = await fileVersions.uploadFileVersion(services, request.caller(), fileTarget(request), {
        name: input.name,
        bytes: decodeBase64(input.contentBase64),
      });
      return { status: 201, body: version };
    },
    deleteFileVersion: async (request, services) => {
      await fileVersions.deleteFileVersion(services, request.caller(), {
        ...fileTarget(request),
        versionId: request.pathParameters.versionId!,
      });
      return { status: 204 };
    },
    pinFileVersion: async (request, services) => {
      const { versionId } = request.parseBody(filePinSchema);
      return {
        status: 200,
        body: await fileVersions.pinFileVersion(services, request.caller(), fileTarget(request), versionId),
      };
    },
  },
  compose(connectorFiles, fileStorage),
);
