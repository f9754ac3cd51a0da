/**
 * "Verify chain" on the audit log screen (docs/governance.md, "Tamper-evident audit log"): the server
 * checks the project's hash chain and the result is said here, OK with the head, or the first entry
 * changed, removed or inserted. `dogu audit verify` does the same check on the caller's machine.
 */
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { useWorkspace } from '../../app/workspace.tsx';
import { Button, ErrorBanner } from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';
import { type AuditVerification, governancePaths } from './api.ts';

export function AuditChainCheck() {
  const t = useT();
  const { projectId } = useWorkspace();
  const [result, setResult] = useState<AuditVerification>();
  const [checking, setChecking] = useState(false);
  const [failure, setFailure] = useState<unknown>();

  const check = async () => {
    setChecking(true);
    setFailure(undefined);
    setResult(undefined);
    try {
      setResult(await api.get<AuditVerification>(governancePaths.auditVerification(projectId)));
    } catch (error) {
      setFailure(error);
    } finally {
      setChecking(false);
    }
  };

  return (
    <div className="audit-chain-check">
      <Button busy={checking} onClick={() => void check()}>
        {t('governance.audit.verify')}
      </Button>
      <ErrorBanner error={failure} />
      {/* Announced when it appears: the check takes a moment on a long log. */}
      <div role="status" aria-live="polite">
        {result ? <ChainState result={result} /> : null}
      </div>
    </div>
  );
}

function ChainState({ result }: { result: AuditVerification }) {
  const t = useT();
  if (result.ok) {
    return (
      <p className="notice notice-info" data-chain="ok">
        {result.last
          ? t('governance.audit.chainOk', {
              count: String(result.checked),
              seq: String(result.last.seq),
              hash: result.last.hash.slice(0, 16),
            })
          : t('governance.audit.chainEmpty')}
        {result.unchained > 0
          ? ` ${t('governance.audit.chainOlder', { count: String(result.unchained) })}`
          : ''}
      </p>
    );
  }
  const problem = result.problem!;
  return (
    <p className="notice notice-error" data-chain={problem.kind}>
      {t(`governance.audit.chainBroken.${problem.kind}`, {
        entry: problem.entryId ?? '—',
        seq: problem.seq === undefined ? '—' : String(problem.seq),
      })}
    </p>
  );
}
