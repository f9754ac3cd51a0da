/** English strings of the AI agents (MCP) screens and of how a run came about. */
export const agentsEn: Record<string, string> = {
  'nav.settings.agents': 'AI agents',

  'agents.settings.title': 'AI agents (MCP)',
  'agents.settings.intro':
    'Assistants reach this project through its MCP server as a person or service account, and only ever see actions that principal may run. Narrow that further here.',
  'agents.settings.readOnly':
    "You can see the agent settings but not change them: your roles ({roles}) lack the right 'manage_project' (administrators and development leads hold it, directly or through a user group).",
  'agents.settings.visible': 'Actions agents may see',
  'agents.settings.visible.all': 'Every action the principal may run',
  'agents.settings.visible.listed': 'Only the actions and action groups chosen below',
  'agents.settings.chosen': 'Chosen for agents',
  'agents.settings.chosenHint': 'An action chosen here stays hidden from a principal who may not run it.',
  'agents.settings.actions': 'Actions',
  'agents.settings.groups': 'Action groups',
  'agents.settings.noActions': 'This project has no actions yet.',
  'agents.settings.groupSize': '({count} actions)',
  'agents.settings.changesData': 'changes data',
  'agents.settings.review': 'Data-changing actions',
  'agents.settings.changesWithoutReview': 'Let agents run data-changing actions without review',
  'agents.settings.reviewOn':
    'A data-changing action an agent calls becomes a review request: a person approves it before it runs.',
  'agents.settings.reviewOff':
    'Agents run data-changing actions at once, without a person looking first (actions that require review still ask).',
  'agents.settings.confirmTitle': 'Let agents change data without review?',
  'agents.settings.confirmBody':
    'An assistant could then update or delete data as soon as it decides to, with no person approving each call. Every run is still recorded with the agent and the principal. The setting takes effect when you save.',
  'agents.settings.confirm': 'Allow without review',
  'agents.settings.save': 'Save',
  'agents.settings.saved': 'Agent settings saved.',

  'agents.via.label': 'Started via',
  'agents.via.client': 'MCP client',
  'agents.via.public_api': 'API',
  'agents.via.console': 'Console',
  'agents.via.cron': 'Cron job',
  'agents.via.batch': 'Batch',
  'agents.via.reservation': 'Reservation',
  'agents.via.review': 'Approved review',
  'agents.via.async_job': 'Asynchronous job',
  'agents.via.view': 'View',
  'agents.via.mcp': 'AI agent (MCP)',
  'agents.runBy': 'Run as',
  'agents.requestedVia': 'Requested via',
  'agents.principal.serviceAccount': 'service account',
};
