/**
 * Project settings → upload tokens (spec 4.3): create (the token is shown once, with a copy
 * button), list (name, prefix, created, last used), rotate and revoke after a confirmation.
 */
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client.ts';
import { pointerErrors } from '../../api/field-errors.ts';
import { useWorkspace } from '../../app/workspace.tsx';
import {
  Button,
  Dialog,
  EmptyState,
  ErrorBanner,
  Field,
  ListTable,
  useAsync,
  useConfirmation,
  useToast,
} from '../../components/index.ts';
import { formatTime } from '../../i18n/format-time.ts';
import { useLanguage, useT } from '../../i18n/index.tsx';
import { filePaths, type NewUploadToken as Shown, type UploadToken } from './file-versions.ts';

export function UploadTokensScreen() {
  const t = useT();
  const toast = useToast();
  const { language } = useLanguage();
  const { projectId } = useWorkspace();
  const list = useAsync(
    () => api.get<{ data: UploadToken[] }>(filePaths.uploadTokens(projectId)),
    [projectId],
  );
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<unknown>();
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<Shown>();

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setCreating(true);
    setErrors({});
    setFailure(undefined);
    try {
      setShown(await api.post<Shown>(filePaths.uploadTokens(projectId), { name }));
      setName('');
      list.reload();
    } catch (error) {
      setFailure(error);
      setErrors(pointerErrors(error));
    } finally {
      setCreating(false);
    }
  };
  const rotation = useConfirmation(async (token: UploadToken) => {
    setShown(await api.post<Shown>(filePaths.rotate(projectId, token.id)));
    list.reload();
  }, setFailure);
  const revocation = useConfirmation(async (token: UploadToken) => {
    await api.del(filePaths.uploadToken(projectId, token.id));
    list.reload();
  }, setFailure);
  const copy = async () => {
    if (!shown) return;
    try {
      await navigator.clipboard.writeText(shown.token);
      toast(t('editors.uploadTokens.copied'));
    } catch (error) {
      setFailure(error);
    }
  };

  return (
    <section className="screen" aria-labelledby="upload-tokens-title">
      <div className="screen-header">
        <h1 id="upload-tokens-title">{t('editors.uploadTokens.title')}</h1>
      </div>
      <p className="hint">{t('editors.uploadTokens.intro')}</p>
      <ErrorBanner error={list.error ?? (Object.keys(errors).length ? undefined : failure)} />
      <form
        className="inline-fields"
        onSubmit={create}
        noValidate
        aria-label={t('editors.uploadTokens.create')}
      >
        <Field label={t('editors.uploadTokens.name')} required error={errors.name}>
          <input value={name} onChange={(event) => setName(event.target.value)} />
        </Field>
        <Button type="submit" variant="primary" busy={creating}>
          {t('editors.uploadTokens.create')}
        </Button>
      </form>
      {shown ? (
        <div className="one-time-secret" role="status">
          <strong>{t('editors.uploadTokens.newToken', { name: shown.name })}</strong>
          <p>{t('editors.uploadTokens.copyNow')}</p>
          <input
            className="mono"
            readOnly
            value={shown.token}
            aria-label={t('editors.uploadTokens.newToken', { name: shown.name })}
            onFocus={(event) => event.target.select()}
          />{' '}
          <Button onClick={copy}>{t('editors.uploadTokens.copy')}</Button>{' '}
          <Button onClick={() => setShown(undefined)}>{t('editors.uploadTokens.done')}</Button>
        </div>
      ) : null}
      <ListTable
        label={t('editors.uploadTokens.title')}
        columns={[
          t('editors.uploadTokens.name'),
          t('editors.uploadTokens.prefix'),
          t('editors.uploadTokens.created'),
          t('editors.uploadTokens.lastUsed'),
        ]}
        rowActions
        items={list.data?.data}
        empty={<EmptyState title={t('editors.uploadTokens.none')} />}
        row={(token) => (
          <tr key={token.id}>
            <td>{token.name}</td>
            <td className="mono">{token.prefix}…</td>
            <td>{formatTime(token.createdAt, language)}</td>
            <td>
              {token.lastUsedAt ? formatTime(token.lastUsedAt, language) : t('editors.uploadTokens.never')}
            </td>
            <td>
              <Button className="btn-small" onClick={() => rotation.ask(token)}>
                {t('editors.uploadTokens.rotate')}
              </Button>{' '}
              <Button className="btn-small" variant="danger" onClick={() => revocation.ask(token)}>
                {t('editors.uploadTokens.revoke')}
              </Button>
            </td>
          </tr>
        )}
      />
      <Dialog
        {...rotation.dialog}
        busy={rotation.busy}
        title={t('editors.uploadTokens.rotateTitle', { name: rotation.subject?.name ?? '' })}
        confirmLabel={t('editors.uploadTokens.rotate')}
      >
        <p>{t('editors.uploadTokens.rotateDetail')}</p>
      </Dialog>
      <Dialog
        {...revocation.dialog}
        busy={revocation.busy}
        title={t('editors.uploadTokens.revokeTitle', { name: revocation.subject?.name ?? '' })}
        danger
        confirmLabel={t('editors.uploadTokens.revoke')}
      >
        <p>{t('editors.uploadTokens.revokeDetail')}</p>
      </Dialog>
    </section>
  );
}
