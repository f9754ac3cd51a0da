/**
 * Project settings → bridges (docs/bridge.md): register a bridge (id, name, https address, the
 * certificate or CA Dogu pins), change its address or pinned certificates (rotation: old and new
 * together, then the new one alone), see its last contact, version and time-out, and remove it.
 */
import { type FormEvent, useState } from 'react';
import { api, pathOf } from '../../api/client.ts';
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
} from '../../components/index.ts';
import { formatTime } from '../../i18n/format-time.ts';
import { useLanguage, useT } from '../../i18n/index.tsx';

interface Bridge {
  id: string;
  name?: string;
  url: string;
  certificates: string[];
  fingerprints: string[];
  lastContactAt: string | null;
  version?: string;
  timeoutMs?: number;
}

const bridgesPath = (projectId: string) => pathOf`/api/v1/projects/${projectId}/bridges`;
const bridgePath = (projectId: string, id: string) => pathOf`/api/v1/projects/${projectId}/bridges/${id}`;

/** One or more PEM certificates pasted into one box. */
const certificatesIn = (text: string) =>
  text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g)?.map((pem) => `${pem}\n`) ?? [];

export function BridgesScreen() {
  const t = useT();
  const { language } = useLanguage();
  const { projectId } = useWorkspace();
  const list = useAsync(() => api.get<{ data: Bridge[] }>(bridgesPath(projectId)), [projectId]);
  const [draft, setDraft] = useState({ id: '', name: '', url: '', certificates: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<unknown>();
  const [saving, setSaving] = useState(false);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setErrors({});
    setFailure(undefined);
    try {
      await api.put(bridgePath(projectId, draft.id.trim()), {
        ...(draft.name.trim() ? { name: draft.name.trim() } : {}),
        url: draft.url.trim(),
        certificates: certificatesIn(draft.certificates),
      });
      setDraft({ id: '', name: '', url: '', certificates: '' });
      list.reload();
    } catch (error) {
      setFailure(error);
      setErrors(pointerErrors(error));
    } finally {
      setSaving(false);
    }
  };
  const removal = useConfirmation(async (bridge: Bridge) => {
    await api.del(bridgePath(projectId, bridge.id));
    list.reload();
  }, setFailure);
  const edit = (bridge: Bridge) =>
    setDraft({
      id: bridge.id,
      name: bridge.name ?? '',
      url: bridge.url,
      certificates: bridge.certificates.join(''),
    });

  return (
    <section className="screen" aria-labelledby="bridges-title">
      <div className="screen-header">
        <h1 id="bridges-title">{t('editors.bridges.title')}</h1>
      </div>
      <p className="hint">{t('editors.bridges.intro')}</p>
      <ErrorBanner error={list.error ?? failure} />
      <ListTable
        label={t('editors.bridges.title')}
        columns={[
          t('editors.bridges.id'),
          t('editors.bridges.url'),
          t('editors.bridges.fingerprints'),
          t('editors.bridges.lastContact'),
          t('editors.bridges.version'),
        ]}
        rowActions
        items={list.data?.data}
        empty={<EmptyState title={t('editors.bridges.none')} />}
        row={(bridge) => (
          <tr key={bridge.id}>
            <td>
              {bridge.id}
              {bridge.name ? <div className="hint">{bridge.name}</div> : null}
            </td>
            <td className="mono">{bridge.url}</td>
            <td className="mono">
              {bridge.fingerprints.map((fingerprint) => (
                <div key={fingerprint}>{fingerprint.slice(0, 23)}…</div>
              ))}
            </td>
            <td>
              {bridge.lastContactAt ? formatTime(bridge.lastContactAt, language) : t('editors.bridges.never')}
            </td>
            <td>
              {bridge.version ?? '–'}
              {bridge.timeoutMs ? (
                <div className="hint">{t('editors.bridges.timeout', { ms: String(bridge.timeoutMs) })}</div>
              ) : null}
            </td>
            <td>
              <Button className="btn-small" onClick={() => edit(bridge)}>
                {t('editors.bridges.edit')}
              </Button>{' '}
              <Button className="btn-small" variant="danger" onClick={() => removal.ask(bridge)}>
                {t('editors.bridges.remove')}
              </Button>
            </td>
          </tr>
        )}
      />
      <form className="action-form" onSubmit={save} noValidate aria-label={t('editors.bridges.save')}>
        <h2>{t('editors.bridges.register')}</h2>
        <Field label={t('editors.bridges.id')} required error={errors.id}>
          <input value={draft.id} onChange={(event) => setDraft({ ...draft, id: event.target.value })} />
        </Field>
        <Field label={t('editors.bridges.name')} error={errors.name}>
          <input value={draft.name} onChange={(event) => setDraft({ ...draft, name: event.target.value })} />
        </Field>
        <Field
          label={t('editors.bridges.url')}
          required
          error={errors.url}
          hint={t('editors.bridges.urlHint')}
        >
          <input
            value={draft.url}
            placeholder="https://bridge.example.com:8443"
            onChange={(event) => setDraft({ ...draft, url: event.target.value })}
          />
        </Field>
        <Field
          label={t('editors.bridges.certificates')}
          required
          error={Object.entries(errors).find(([key]) => key.startsWith('certificates'))?.[1]}
          hint={t('editors.bridges.certificatesHint')}
        >
          <textarea
            className="mono"
            rows={6}
            value={draft.certificates}
            onChange={(event) => setDraft({ ...draft, certificates: event.target.value })}
          />
        </Field>
        <Button type="submit" variant="primary" busy={saving}>
          {t('editors.bridges.save')}
        </Button>
      </form>
      <Dialog
        {...removal.dialog}
        busy={removal.busy}
        title={t('editors.bridges.removeTitle', { id: removal.subject?.id ?? '' })}
        danger
        confirmLabel={t('editors.bridges.remove')}
      >
        <p>{t('editors.bridges.removeDetail')}</p>
      </Dialog>
    </section>
  );
}
