/** One screen per action group: each action's entry in the group's order, each run on its own. */
import { type FormEvent, useState } from 'react';
import { ApiError, api } from '../../api/client.ts';
import { apiPaths } from '../../api/paths.ts';
import type {
  Choice,
  Execution,
  ListOf,
  MasterDataList,
  Parameter,
  ReviewRequested,
} from '../../api/types.ts';
import { Link } from '../../app/router.tsx';
import { useWorkspace } from '../../app/workspace.tsx';
import { Button, ErrorBanner, useAsync } from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';
import { ParameterGrid } from '../actions/ParameterGrid.tsx';
import { type Drafts, errorsByParameter, initialDrafts, toArguments } from '../actions/parameter-values.ts';
import { ResultView } from '../actions/ResultView.tsx';
import { GroupViewCards, loadViewSummaries, viewsOfGroup } from '../views/group-views.tsx';
import { type ActionGroupDetail, governancePaths } from './api.ts';

export function ActionGroupRunScreen({ params }: { params: Record<string, string> }) {
  const t = useT();
  const workspace = useWorkspace();
  const groupId = params.groupId!;
  const loaded = useAsync(async () => {
    const group = await api.get<ActionGroupDetail>(governancePaths.actionGroup(workspace.projectId, groupId));
    const masterData: Record<string, Choice[]> = {};
    const needsLists = (group.actions ?? []).some((a) =>
      a.parameters.some((p) => 'masterData' in p && p.masterData),
    );
    if (needsLists) {
      const lists = await api.get<ListOf<MasterDataList>>(apiPaths.masterData(workspace.projectId));
      for (const list of lists.data) masterData[list.id] = list.entries;
    }
    const views = viewsOfGroup(await loadViewSummaries(workspace.projectId), groupId);
    return { group, masterData, views };
  }, [workspace.projectId, groupId]);
  return (
    <section className="screen" aria-labelledby="group-run-title">
      <Link href={workspace.href('/action-groups')} className="back-link">
        ← {t('governance.groups.title')}
      </Link>
      <h1 id="group-run-title">{loaded.data?.group.name ?? groupId}</h1>
      <ErrorBanner error={loaded.error} />
      {loaded.data?.group.missingActionIds?.length ? (
        <p className="notice notice-warning">
          {t('governance.groups.missing', { ids: loaded.data.group.missingActionIds.join(', ') })}
        </p>
      ) : null}
      <GroupViewCards views={loaded.data?.views ?? []} />
      {(loaded.data?.group.actions ?? []).map((action, index) => (
        <GroupEntry
          key={action.id}
          position={index + 1}
          action={action}
          masterData={loaded.data?.masterData ?? {}}
        />
      ))}
    </section>
  );
}

function GroupEntry({
  position,
  action,
  masterData,
}: {
  position: number;
  action: { id: string; name: string; description?: string; kind: string; parameters: Parameter[] };
  masterData: Record<string, Choice[]>;
}) {
  const t = useT();
  const workspace = useWorkspace();
  const [drafts, setDrafts] = useState<Drafts>(() => initialDrafts(action.parameters));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [running, setRunning] = useState(false);
  const [execution, setExecution] = useState<{ execution: Execution; args: Record<string, unknown> }>();
  const [review, setReview] = useState<ReviewRequested>();
  const [failure, setFailure] = useState<unknown>();

  const run = async (event: FormEvent) => {
    event.preventDefault();
    const built = toArguments(action.parameters, drafts);
    const clientErrors = Object.fromEntries(
      Object.entries(built.errors).map(([k, e]) => [k, t(e.key, e.vars)]),
    );
    setErrors(clientErrors);
    if (Object.keys(clientErrors).length) return;
    setRunning(true);
    setFailure(undefined);
    setReview(undefined);
    try {
      const response = await api.postWithResponse<Execution | ReviewRequested>(
        apiPaths.executions(workspace.projectId, workspace.environmentId, action.id),
        { arguments: built.arguments },
      );
      if (response.status === 202 && 'reviewRequest' in response.body) setReview(response.body);
      else setExecution({ execution: response.body as Execution, args: built.arguments });
    } catch (error) {
      setFailure(error);
      if (error instanceof ApiError) setErrors(errorsByParameter(error.errors));
    } finally {
      setRunning(false);
    }
  };

  return (
    <section className="group-entry" aria-labelledby={`entry-${action.id}`}>
      <h2 id={`entry-${action.id}`} className="section-title">
        {position}. {action.name}{' '}
        <span className={`kind-badge kind-${action.kind}`}>{action.kind.toUpperCase()}</span>
      </h2>
      {action.description ? <p className="muted">{action.description}</p> : null}
      <form onSubmit={run} noValidate aria-label={action.name}>
        <ParameterGrid
          parameters={action.parameters}
          drafts={drafts}
          setDrafts={setDrafts}
          errors={errors}
          masterData={masterData}
        />
        <div className="form-actions">
          <Button type="submit" variant="primary" busy={running}>
            {t('action.run')}
          </Button>
        </div>
      </form>
      <ErrorBanner error={failure} />
      {review ? (
        <p className="notice notice-info">
          <Link href={workspace.href(`/reviews/${encodeURIComponent(review.reviewRequest.id)}`)}>
            {t('action.reviewRequested')}
          </Link>
        </p>
      ) : null}
      {execution ? <ResultView execution={execution.execution} actionId={action.id} /> : null}
    </section>
  );
}
