/**
 * One environment's uploaded file versions of a data source whose kind keeps files (a gRPC data
 * source's protosets): the ids an upload needs, upload, the list with the version in use, pin,
 * unpin and delete (docs/grpc.md).
 */
import { useRef, useState } from 'react';
import { api } from '../../api/client.ts';
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
import {
  type FileVersion,
  type FileVersionList,
  filePaths,
  formatBytes,
  uploadFileVersion,
} from './file-versions.ts';

export function FileVersionsPanel(props: { projectId: string; dataSourceId: string; environmentId: string }) {
  const { projectId, dataSourceId, environmentId } = props;
  const t = useT();
  const toast = useToast();
  const { language } = useLanguage();
  const versions = useAsync(
    () => api.get<FileVersionList>(filePaths.versions(projectId, dataSourceId, environmentId)),
    [projectId, dataSourceId, environmentId],
  );
  const [failure, setFailure] = useState<unknown>();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const fileName = versions.data?.fileKind.name ?? 'file';

  // Not a form of its own: the panel sits inside the data-source form.
  const upload = async () => {
    const file = fileInput.current?.files?.[0];
    if (!file) return;
    setBusy(true);
    setFailure(undefined);
    try {
      const version = await uploadFileVersion(
        filePaths.versions(projectId, dataSourceId, environmentId),
        file,
        name,
      );
      toast(t('editors.files.uploaded', { name: version.name ?? file.name }));
      setName('');
      if (fileInput.current) fileInput.current.value = '';
      versions.reload();
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  const pin = async (versionId: string | null) => {
    setFailure(undefined);
    try {
      await api.put(filePaths.pin(projectId, dataSourceId, environmentId), { versionId });
      versions.reload();
    } catch (error) {
      setFailure(error);
    }
  };
  const deletion = useConfirmation(async (version: FileVersion) => {
    await api.del(filePaths.version(projectId, dataSourceId, environmentId, version.id));
    versions.reload();
  }, setFailure);
  const list = versions.data;

  return (
    <section className="file-versions" aria-label={t('editors.files.title', { file: fileName })}>
      <h3>{t('editors.files.title', { file: fileName })}</h3>
      <p className="hint">
        {t('editors.files.ids')} <code>{dataSourceId}</code> · <code>{environmentId}</code>
      </p>
      <ErrorBanner error={versions.error ?? failure} />
      <div className="inline-fields">
        <Field label={t('editors.files.choose', { file: fileName })}>
          <input ref={fileInput} type="file" />
        </Field>
        <Field label={t('editors.files.versionName')}>
          <input value={name} onChange={(event) => setName(event.target.value)} />
        </Field>
        <Button busy={busy} onClick={() => upload()}>
          {t('editors.files.upload')}
        </Button>
      </div>
      {list ? (
        <p className="hint">
          {list.pinnedVersionId ? t('editors.files.followsPinned') : t('editors.files.followsLatest')}{' '}
          {t('editors.files.limit', { size: formatBytes(list.fileKind.maxBytes) })}
        </p>
      ) : null}
      <ListTable
        label={t('editors.files.title', { file: fileName })}
        columns={[
          t('editors.files.versionName'),
          t('editors.files.uploadedAt'),
          t('editors.files.size'),
          t('editors.files.services'),
          t('editors.files.state'),
        ]}
        rowActions
        items={list?.data}
        empty={<EmptyState title={t('editors.files.none', { file: fileName })} />}
        row={(version) => {
          const pinned = list?.pinnedVersionId === version.id;
          const active = list?.activeVersionId === version.id;
          return (
            <tr key={version.id}>
              <td>
                {version.name ?? <span className="mono">{version.id}</span>}
                <div className="hint mono" title={version.sha256}>
                  sha256 {version.sha256.slice(0, 12)}…
                </div>
              </td>
              <td>{formatTime(version.uploadedAt, language)}</td>
              <td>{formatBytes(version.size)}</td>
              <td>{servicesOf(version).join(', ')}</td>
              <td>{pinned ? t('editors.files.pinned') : active ? t('editors.files.inUse') : ''}</td>
              <td>
                {pinned ? (
                  <Button className="btn-small" onClick={() => pin(null)}>
                    {t('editors.files.unpin')}
                  </Button>
                ) : (
                  <Button className="btn-small" onClick={() => pin(version.id)}>
                    {t('editors.files.pin')}
                  </Button>
                )}{' '}
                <Button
                  className="btn-small"
                  variant="danger"
                  disabled={pinned}
                  onClick={() => deletion.ask(version)}
                >
                  {t('editors.delete')}
                </Button>
              </td>
            </tr>
          );
        }}
      />
      <Dialog
        {...deletion.dialog}
        title={t('editors.files.deleteTitle', { name: deletion.subject?.name ?? deletion.subject?.id ?? '' })}
        danger
        confirmLabel={t('editors.delete')}
      >
        <p>{t('editors.files.deleteDetail')}</p>
      </Dialog>
    </section>
  );
}

/** What the kind found in the file: a protoset's services (other kinds may describe nothing). */
function servicesOf(version: FileVersion): string[] {
  const services = version.description.services;
  return Array.isArray(services) ? services.map(String) : [];
}
