/** English strings of the consent screen for MCP clients signing in with OAuth. */
export const mcpOAuthEn: Record<string, string> = {
  'mcpOAuth.title': 'Connect an AI assistant',
  'mcpOAuth.asks': '{client} asks to act as you ({email}) through Dogu’s MCP server.',
  'mcpOAuth.client': 'Client',
  'mcpOAuth.redirectHost': 'Sends the answer to',
  'mcpOAuth.project': 'Project',
  'mcpOAuth.environment': 'Environment',
  'mcpOAuth.explain':
    'If you allow it, the client sees and runs the actions you may run in this environment only, as you. Data changes still wait for a review. You can end its access by revoking it from the client, or an administrator can by signing you out everywhere.',
  'mcpOAuth.allow': 'Allow',
  'mcpOAuth.deny': 'Deny',
  'mcpOAuth.gone':
    'This request is unknown, expired or already answered. Start connecting again from the AI assistant.',
};
