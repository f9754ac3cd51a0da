/**
 * How a run came about and for whom, as execution and review screens show it: the person or service
 * account, and the way in (console, API, schedule, review…); a run by an AI agent names its MCP
 * client, which the agent declared itself (docs/agents.md).
 */
import { useT } from '../../i18n/index.tsx';

export interface RunOriginProps {
  via?: string | undefined;
  agent?: { client: string } | undefined;
}

export function RunVia({ via, agent }: RunOriginProps) {
  const t = useT();
  const how = via ? t(`agents.via.${via}`) : '—';
  return (
    <span data-testid="run-via">
      {how}
      {agent ? (
        <>
          {' · '}
          {t('agents.via.client')} <span className="mono">{agent.client}</span>
        </>
      ) : null}
    </span>
  );
}

export function RunPrincipal({
  principal,
}: {
  principal?: { kind?: string; name?: string; email?: string };
}) {
  const t = useT();
  if (!principal) return <span className="muted">—</span>;
  return (
    <span data-testid="run-principal">
      {principal.name || principal.email} {principal.email ? <>&lt;{principal.email}&gt;</> : null}
      {principal.kind === 'service_account' ? (
        <span className="muted small"> ({t('agents.principal.serviceAccount')})</span>
      ) : null}
    </span>
  );
}
