import {
  serviceAccountCreateSchema,
  serviceAccountUpdateSchema,
  trustPolicyInputSchema,
} from '../shared/domain/definitions/service-account.ts';
import * as accounts from '../shared/domain/manage/service-accounts.ts';
import * as policies from '../shared/domain/manage/trust-policies.ts';
import { defineRoutes } from '../shared/http/handler.ts';

/**
 * /api/v1/projects/{projectId}/service-accounts[/{serviceAccountId}[/revoke-tokens|/trust-policies[/{policyId}]]]:
 * workload identities of a project and the external ID tokens they accept (docs/authentication.md).
 */
export const handler = defineRoutes({
  listServiceAccounts: async (request, services) => ({
    status: 200,
    body: {
      data: await accounts.listServiceAccounts(services, request.caller(), request.pathParameters.projectId!),
    },
  }),
  createServiceAccount: async (request, services) => {
    const input = request.parseBody(serviceAccountCreateSchema);
    const { projectId } = request.pathParameters;
    return {
      status: 201,
      body: await accounts.createServiceAccount(services, request.caller(), projectId!, input),
    };
  },
  getServiceAccount: async (request, services) => {
    const { projectId, serviceAccountId } = request.pathParameters;
    return {
      status: 200,
      body: await accounts.getServiceAccount(services, request.caller(), projectId!, serviceAccountId!),
    };
  },
  updateServiceAccount: async (request, services) => {
    const { projectId, serviceAccountId } = request.pathParameters;
    const input = request.parseBody(serviceAccountUpdateSchema);
    return {
      status: 200,
      body: await accounts.updateServiceAccount(
        services,
        request.caller(),
        projectId!,
        serviceAccountId!,
        input,
      ),
    };
  },
  deleteServiceAccount: async (request, services) => {
    const { projectId, serviceAccountId } = request.pathParameters;
    await accounts.deleteServiceAccount(services, request.caller(), projectId!, serviceAccountId!);
    return { status: 204 };
  },
  revokeServiceAccountTokens: async (request, services) => {
    const { projectId, serviceAccountId } = request.pathParameters;
    return {
      status: 200,
      body: await accounts.revokeServiceAccountTokens(
        services,
        request.caller(),
        projectId!,
        serviceAccountId!,
      ),
    };
  },
  listTrustPolicies: async (request, services) => {
    const { projectId, serviceAccountId } = request.pathParameters;
    return {
      status: 200,
      body: {
        data: await policies.listTrustPolicies(services, request.caller(), projectId!, serviceAccountId!),
      },
    };
  },
  getTrustPolicy: async (request, services) => {
    const { projectId, serviceAccountId, policyId } = request.pathParameters;
    return {
      status: 200,
      body: await policies.getTrustPolicy(
        services,
        request.caller(),
        projectId!,
        serviceAccountId!,
        policyId!,
      ),
    };
  },
  putTrustPolicy: async (request, services) => {
    const { projectId, serviceAccountId, policyId } = request.pathParameters;
    const input = request.parseBody(trustPolicyInputSchema);
    const { policy, created } = await policies.putTrustPolicy(
      services,
      request.caller(),
      projectId!,
      serviceAccountId!,
      policyId!,
      input,
    );
    return { status: created ? 201 : 200, body: policy };
  },
  deleteTrustPolicy: async (request, services) => {
    const { projectId, serviceAccountId, policyId } = request.pathParameters;
    await policies.deleteTrustPolicy(services, request.caller(), projectId!, serviceAccountId!, policyId!);
    return { status: 204 };
  },
});
