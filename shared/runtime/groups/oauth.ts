/** Dogu's authorization server for MCP clients (decision 0230): its records on the one table. */
import type { OAuthStore } from '../../domain/agents/oauth/store.ts';
import type { ServiceGroup } from '../services.ts';

export const oauthRecords: ServiceGroup<{ mcpOAuth: OAuthStore }> = {
  name: 'oauth',
  pick: ({ mcpOAuth }) => ({ mcpOAuth }),
  async createOnAws() {
    const [{ DynamoDbOAuthStore }, { requiredEnv, sharedDocumentClient }] = await Promise.all([
      import('../../adapters/dynamodb/dynamodb-oauth-store.ts'),
      import('../aws-core.ts'),
    ]);
    return { mcpOAuth: new DynamoDbOAuthStore(sharedDocumentClient(), requiredEnv('DOGU_TABLE_NAME')) };
  },
};
