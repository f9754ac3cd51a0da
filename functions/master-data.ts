import { masterDataInputSchema } from '../shared/domain/definitions/master-data.ts';
import { badRequest } from '../shared/domain/errors.ts';
import * as masterData from '../shared/domain/manage/master-data.ts';
import { defineRoutes } from '../shared/http/handler.ts';

/** /api/v1/projects/{projectId}/master-data[/{masterDataId}]: value/label lists for parameter choices. */
export const handler = defineRoutes({
  listMasterDataLists: async (request, services) => ({
    status: 200,
    body: {
      data: await masterData.listMasterData(services, request.caller(), request.pathParameters.projectId!),
    },
  }),
  getMasterDataList: async (request, services) => {
    const { projectId, masterDataId } = request.pathParameters;
    return {
      status: 200,
      body: await masterData.getMasterData(services, request.caller(), projectId!, masterDataId!),
    };
  },
  putMasterDataList: async (request, services) => {
    const { projectId, masterDataId } = request.pathParameters;
    const input = request.parseBody(masterDataInputSchema);
    if (input.id !== masterDataId)
      throw badRequest(`The body's id '${input.id}' differs from the path's '${masterDataId}'.`);
    const { list, created } = await masterData.putMasterData(services, request.caller(), projectId!, input);
    return { status: created ? 201 : 200, body: list };
  },
  deleteMasterDataList: async (request, services) => {
    const { projectId, masterDataId } = request.pathParameters;
    await masterData.deleteMasterData(services, request.caller(), projectId!, masterDataId!);
    return { status: 204 };
  },
});
