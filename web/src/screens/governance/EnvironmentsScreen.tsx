/**
 * Project settings → environments (docs/governance.md#protected-environments): each environment
 * with whether it is protected (only published versions of actions and views run or show there).
 * Those who may manage the project (the right `manage_project`, through a user group too) protect
 * or unprotect one with `PATCH …/environments/{id}`; unprotecting a production-like one asks first,
 * since every later save would run there unseen. Everyone else sees the list and why they cannot
 * change it.
 */
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { apiPaths } from '../../api/paths.ts';
import type { Environment, ListOf } from '../../api/types.ts';
import { useProjectAccess } from '../../app/project-access.ts';
import { useWorkspace } from '../../app/workspace.tsx';
import {
  Button,
  Dialog,
  EmptyState,
  ErrorBanner,
  ListTable,
  useAsync,
  useConfirmation,
  useToast,
} from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';
import { environmentPath } from './api.ts';
import { looksLikeProduction } from './production-like.ts';

export function EnvironmentsScreen() {
  const t = useT();
  const toast = useToast();
  const workspace = useWorkspace();
  const { projectId } = workspace;
  const list = useAsync(() => api.get<ListOf<Environment>>(apiPaths.environments(projectId)), [projectId]);
  const access = useProjectAccess(projectId);
  const mayManage = access.may('manage_project');
  const [failure, setFailure] = useState<unknown>();
  const [changing, setChanging] = useState<string>();

  const setProtected = async (environment: Environment, next: boolean) => {
    setChanging(environment.id);
    setFailure(undefined);
    try {
      await api.patch(environmentPath(projectId, environment.id), { protected: next });
      list.reload();
      // The header's switcher and the screens that read `protected` see the change at once.
      workspace.reloadEnvironments?.();
      toast(
        t(next ? 'environments.nowProtected' : 'environments.nowUnprotected', { name: environment.name }),
      );
    } finally {
      setChanging(undefined);
    }
  };
  const unprotection = useConfirmation(
    (environment: Environment) => setProtected(environment, false),
    setFailure,
  );
  const toggle = (environment: Environment) => {
    if (changing) return;
    if (environment.protected && looksLikeProduction(environment)) {
      unprotection.ask(environment);
      return;
    }
    setProtected(environment, !environment.protected).catch(setFailure);
  };
  const toggleLabel = (environment: Environment) =>
    t(environment.protected ? 'environments.unprotect' : 'environments.protect');
  const roleNames = (access.access?.roles ?? []).map((role) => t(`identity.role.${role}`)).join(', ');

  return (
    <section className="screen" aria-labelledby="environments-title">
      <div className="screen-header">
        <h1 id="environments-title">{t('environments.title')}</h1>
      </div>
      <p className="hint">{t('environments.intro')}</p>
      {mayManage === false ? (
        <p className="notice notice-info" role="note">
          {t('environments.readOnly', { roles: roleNames || '—' })}
        </p>
      ) : null}
      <ErrorBanner
        error={list.error ?? failure}
        onDismiss={failure ? () => setFailure(undefined) : undefined}
      />
      <ListTable
        label={t('environments.title')}
        columns={[t('environments.name'), t('environments.id'), t('environments.protection')]}
        rowActions={mayManage === true}
        items={list.data?.data}
        empty={<EmptyState title={t('environments.none')} />}
        row={(environment) => (
          <tr key={environment.id} data-environment-row={environment.id}>
            <td>{environment.name}</td>
            <td className="mono">{environment.id}</td>
            <td>
              {environment.protected ? (
                <>
                  <strong>{t('environments.protected')}</strong>
                  <div className="muted small">{t('environments.protectedMeans')}</div>
                </>
              ) : (
                <>
                  {t('environments.unprotected')}
                  <div className="muted small">{t('environments.unprotectedMeans')}</div>
                </>
              )}
            </td>
            {mayManage === true ? (
              <td>
                <Button
                  className="btn-small"
                  variant={environment.protected ? 'danger' : 'primary'}
                  // Not disabled while the change is sent: a disabled button would drop the keyboard focus.
                  aria-busy={changing === environment.id || undefined}
                  // The visible word first, then which environment (WCAG 2.5.3: the name holds the label).
                  aria-label={`${toggleLabel(environment)} ${environment.name}`}
                  onClick={() => toggle(environment)}
                >
                  {toggleLabel(environment)}
                </Button>
              </td>
            ) : null}
          </tr>
        )}
      />
      <Dialog
        {...unprotection.dialog}
        busy={unprotection.busy}
        danger
        title={t('environments.confirmUnprotect', { name: unprotection.subject?.name ?? '' })}
        confirmLabel={t('environments.unprotect')}
      >
        <p>{t('environments.confirmUnprotectDetail', { name: unprotection.subject?.name ?? '' })}</p>
      </Dialog>
    </section>
  );
}
