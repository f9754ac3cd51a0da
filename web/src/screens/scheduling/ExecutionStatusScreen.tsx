/**
 * One execution by id: an asynchronous job (or a scheduled run) polled every second while it is
 * queued or running, then its results with the core's result view.
 */
import { useEffect, useState } from 'react';
import { api } from '../../api/client.ts';
import type { Execution } from '../../api/types.ts';
import { useWorkspace } from '../../app/workspace.tsx';
import { ErrorBanner } from '../../components/index.ts';
import { formatTime } from '../../i18n/format-time.ts';
import { useLanguage, useT } from '../../i18n/index.tsx';
import { ResultView } from '../actions/ResultView.tsx';
import { RunPrincipal, RunVia } from '../agents/RunOrigin.tsx';
import { schedulingPaths } from './api.ts';

const unfinished = new Set(['queued', 'running']);

export function ExecutionStatusScreen({ params }: { params: Record<string, string> }) {
  const t = useT();
  const { language } = useLanguage();
  const { projectId, environmentId } = useWorkspace();
  const executionId = params.executionId!;
  const [execution, setExecution] = useState<Execution>();
  const [error, setError] = useState<unknown>();

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        const next = await api.get<Execution>(
          schedulingPaths.execution(projectId, environmentId, executionId),
        );
        if (stopped) return;
        setExecution(next);
        setError(undefined);
        if (unfinished.has(next.status)) timer = setTimeout(tick, 1000);
      } catch (failure) {
        if (!stopped) setError(failure);
      }
    };
    void tick();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [projectId, environmentId, executionId]);

  return (
    <section className="screen" aria-labelledby="execution-title">
      <div className="screen-header">
        <h1 id="execution-title">{t('scheduling.execution.title')}</h1>
        <span className="mono muted">{executionId}</span>
      </div>
      <ErrorBanner error={error} />
      {execution ? (
        <>
          <dl className="detail-list">
            <dt>{t('scheduling.field.action')}</dt>
            <dd className="mono">{execution.actionId}</dd>
            <dt>{t('scheduling.field.state')}</dt>
            <dd>
              <span className={`status status-${execution.status}`} data-testid="execution-status">
                {t(`status.${execution.status}`)}
              </span>
              {unfinished.has(execution.status) ? (
                <span className="muted small"> {t('scheduling.execution.polling')}</span>
              ) : null}
            </dd>
            <dt>{t('agents.runBy')}</dt>
            <dd>
              <RunPrincipal principal={execution.executedBy} />
            </dd>
            <dt>{t('agents.via.label')}</dt>
            <dd>
              <RunVia via={execution.via} agent={execution.agent} />
            </dd>
            <dt>{t('scheduling.execution.startedAt')}</dt>
            <dd>{formatTime(execution.startedAt, language)}</dd>
            <dt>{t('scheduling.execution.finishedAt')}</dt>
            <dd>{formatTime(execution.finishedAt ?? undefined, language)}</dd>
          </dl>
          {!unfinished.has(execution.status) && execution.results?.length ? (
            <ResultView execution={execution} actionId={execution.actionId} />
          ) : null}
        </>
      ) : error ? null : (
        <p className="muted">{t('common.loading')}</p>
      )}
    </section>
  );
}
