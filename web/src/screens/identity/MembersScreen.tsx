/**
 * Members and roles of the project (change a role, add by e-mail, remove after a confirmation)
 * and its user groups (a group may carry a role; members by principal id).
 */
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client.ts';
import { errorAt, pointerErrors } from '../../api/field-errors.ts';
import type { Role } from '../../api/types.ts';
import { useWorkspace } from '../../app/workspace.tsx';
import {
  Button,
  Dialog,
  ErrorBanner,
  Field,
  ListTable,
  useAsync,
  useConfirmation,
  useToast,
} from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';
import { identityPaths, type Member, type UserGroup } from './api.ts';
import { RoleOptions } from './RoleOptions.tsx';

export function MembersScreen() {
  const t = useT();
  const toast = useToast();
  const { projectId } = useWorkspace();
  const members = useAsync(() => api.get<{ data: Member[] }>(identityPaths.members(projectId)), [projectId]);
  const [failure, setFailure] = useState<unknown>();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const changeRole = async (member: Member, next: Role) => {
    setFailure(undefined);
    try {
      await api.put(identityPaths.member(projectId, member.principalId), { role: next });
      toast(
        t('identity.members.roleChanged', {
          name: member.email ?? member.principalId,
          role: t(`identity.role.${next}`),
        }),
      );
      members.reload();
    } catch (error) {
      setFailure(error);
      members.reload();
    }
  };

  const add = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    setFailure(undefined);
    try {
      await api.post(identityPaths.members(projectId), { email, role });
      toast(t('identity.members.added', { email }));
      setEmail('');
      members.reload();
    } catch (error) {
      setFailure(error);
      setErrors(pointerErrors(error));
    }
  };

  const removal = useConfirmation(async (member: Member) => {
    await api.del(identityPaths.member(projectId, member.principalId));
    toast(t('identity.members.removed', { name: member.email ?? member.principalId }));
    members.reload();
  }, setFailure);

  return (
    <section className="screen" aria-labelledby="members-title">
      <h1 id="members-title">{t('identity.members.title')}</h1>
      <ErrorBanner
        error={members.error ?? failure}
        onDismiss={failure ? () => setFailure(undefined) : undefined}
      />
      <ListTable
        label={t('identity.members.title')}
        columns={[
          t('identity.members.member'),
          t('identity.members.kind'),
          t('identity.members.role'),
          t('identity.members.groups'),
          t('identity.members.effectiveRole'),
        ]}
        rowActions
        items={members.data?.data}
        row={(member) => {
          const label = member.name
            ? `${member.name} <${member.email ?? ''}>`
            : (member.email ?? member.principalId);
          return (
            <tr key={member.principalId}>
              <td>
                {label}
                <div className="muted small mono">{member.principalId}</div>
              </td>
              <td>{t(`scheduling.executorKind.${member.kind}`)}</td>
              <td>
                <select
                  aria-label={t('identity.members.roleOf', { name: label })}
                  value={member.role ?? ''}
                  onChange={(event) => void changeRole(member, event.target.value as Role)}
                >
                  {member.role ? null : <option value="">{t('identity.members.noDirectRole')}</option>}
                  <RoleOptions />
                </select>
              </td>
              <td>{member.groups.map((g) => g.name).join(', ')}</td>
              <td>{member.effectiveRole ? t(`identity.role.${member.effectiveRole}`) : '—'}</td>
              <td>
                <Button className="btn-small" variant="danger" onClick={() => removal.ask(member)}>
                  {t('identity.members.remove')}
                </Button>
              </td>
            </tr>
          );
        }}
      />
      <form className="inline-fields" onSubmit={add} noValidate aria-label={t('identity.members.add')}>
        <Field label={t('identity.members.email')} required error={errorAt(errors, 'email')}>
          <input type="email" value={email} onChange={(event) => setEmail(event.target.value)} />
        </Field>
        <Field label={t('identity.members.role')} error={errorAt(errors, 'role')}>
          <select value={role} onChange={(event) => setRole(event.target.value as Role)}>
            <RoleOptions />
          </select>
        </Field>
        <Button type="submit" variant="primary" disabled={!email}>
          {t('identity.members.add')}
        </Button>
      </form>
      <UserGroups members={members.data?.data ?? []} onChanged={members.reload} />
      <Dialog
        {...removal.dialog}
        title={t('identity.members.removeTitle', {
          name: removal.subject?.email ?? removal.subject?.principalId ?? '',
        })}
        danger
        confirmLabel={t('identity.members.remove')}
      >
        <p>{t('identity.members.removeDetail')}</p>
      </Dialog>
    </section>
  );
}

function UserGroups({ members, onChanged }: { members: Member[]; onChanged(): void }) {
  const t = useT();
  const toast = useToast();
  const { projectId } = useWorkspace();
  const groups = useAsync(
    () => api.get<{ data: UserGroup[] }>(identityPaths.userGroups(projectId)),
    [projectId],
  );
  const [draft, setDraft] = useState<UserGroup>();
  const [isNew, setIsNew] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<unknown>();

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!draft) return;
    setErrors({});
    setFailure(undefined);
    try {
      const { version: _v, ...body } = draft as UserGroup & { createdAt?: string; updatedAt?: string };
      const {
        createdAt: _c,
        updatedAt: _u,
        ...clean
      } = body as typeof body & { createdAt?: string; updatedAt?: string };
      await api.put(identityPaths.userGroup(projectId, draft.id), {
        ...clean,
        ...(draft.role ? {} : { role: undefined }),
      });
      toast(t('editors.saved', { name: draft.name }));
      setDraft(undefined);
      groups.reload();
      onChanged();
    } catch (error) {
      setFailure(error);
      setErrors(pointerErrors(error));
    }
  };

  const deletion = useConfirmation(async (group: UserGroup) => {
    await api.del(identityPaths.userGroup(projectId, group.id));
    groups.reload();
    onChanged();
  }, setFailure);

  const users = members.filter((m) => m.kind === 'user' || m.kind === 'service_account');
  return (
    <section aria-labelledby="groups-heading">
      <div className="screen-header">
        <h2 id="groups-heading" className="section-title">
          {t('identity.groups.title')}
        </h2>
        <div className="header-spacer" />
        <Button
          onClick={() => {
            setIsNew(true);
            setDraft({ id: '', name: '', members: [] });
          }}
        >
          {t('identity.groups.new')}
        </Button>
      </div>
      <ErrorBanner error={groups.error ?? (Object.keys(errors).length ? undefined : failure)} />
      <ListTable
        label={t('identity.groups.title')}
        columns={[t('editors.name'), t('identity.members.role'), t('identity.groups.members')]}
        rowActions
        items={groups.data?.data}
        row={(group) => (
          <tr key={group.id}>
            <td>
              {group.name} <span className="muted small mono">{group.id}</span>
            </td>
            <td>{group.role ? t(`identity.role.${group.role}`) : '—'}</td>
            <td>
              {group.members.map((id) => members.find((m) => m.principalId === id)?.email ?? id).join(', ')}
            </td>
            <td>
              <Button
                className="btn-small"
                onClick={() => {
                  setIsNew(false);
                  setDraft(group);
                }}
              >
                {t('editors.edit')}
              </Button>{' '}
              <Button className="btn-small" variant="danger" onClick={() => deletion.ask(group)}>
                {t('editors.delete')}
              </Button>
            </td>
          </tr>
        )}
      />
      {draft ? (
        <form className="editor-form" onSubmit={save} noValidate aria-label={t('identity.groups.form')}>
          <div className="inline-fields">
            <Field label={t('editors.id')} required error={errorAt(errors, 'id')}>
              <input
                className="mono"
                value={draft.id}
                readOnly={!isNew}
                onChange={(e) => setDraft({ ...draft, id: e.target.value })}
              />
            </Field>
            <Field label={t('editors.name')} required error={errorAt(errors, 'name')}>
              <input value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
            </Field>
            <Field label={t('identity.members.role')} error={errorAt(errors, 'role')}>
              <select
                value={draft.role ?? ''}
                onChange={(e) => {
                  const { role: _r, ...rest } = draft;
                  setDraft(e.target.value ? { ...rest, role: e.target.value as Role } : rest);
                }}
              >
                <option value="">{t('identity.groups.noRole')}</option>
                <RoleOptions />
              </select>
            </Field>
          </div>
          <Field label={t('identity.groups.members')} group error={errorAt(errors, 'members')}>
            <div className="choice-list">
              {users.map((member) => (
                <label key={member.principalId} className="checkbox">
                  <input
                    type="checkbox"
                    checked={draft.members.includes(member.principalId)}
                    onChange={(e) =>
                      setDraft({
                        ...draft,
                        members: e.target.checked
                          ? [...draft.members, member.principalId]
                          : draft.members.filter((id) => id !== member.principalId),
                      })
                    }
                  />
                  {member.email ?? member.principalId}
                </label>
              ))}
            </div>
          </Field>
          <div className="form-actions">
            <Button type="submit" variant="primary">
              {t('editors.save')}
            </Button>
            <Button onClick={() => setDraft(undefined)}>{t('common.cancel')}</Button>
          </div>
        </form>
      ) : null}
      <Dialog
        {...deletion.dialog}
        title={t('editors.deleteTitle', { name: deletion.subject?.name ?? '' })}
        danger
        confirmLabel={t('editors.delete')}
      />
    </section>
  );
}
