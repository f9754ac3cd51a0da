/**
 * What object-storage results add to a statement (docs/object-storage.md): a download button for
 * a downloaded object, the text of a text object, signed URLs with a copy button and their expiry,
 * and human sizes and dates in listings.
 */
import type { ReactNode } from 'react';
import { saveFile } from '../../api/client.ts';
import type { StatementResult } from '../../api/types.ts';
import { Button, useToast } from '../../components/index.ts';
import { formatTime } from '../../i18n/format-time.ts';
import { useLanguage, useT } from '../../i18n/index.tsx';
import { formatBytes } from './ParameterInput.tsx';

type Row = Record<string, unknown>;

/** A storage result: its rows name objects (`objectKey`) or links (`signedUrl`). */
export const isObjectResult = (result: StatementResult) =>
  (result.columns ?? []).some((c) => c.name === 'objectKey' || c.name === 'signedUrl');

const fromUnixSeconds = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) ? new Date(value * 1000).toISOString() : undefined;

/** Human renderings of the storage columns: sizes in KB/MB, Unix seconds as dates (wide enough to read). */
export function objectColumn(
  name: string,
  language: string,
): { render: (row: Row) => ReactNode; width?: number } | undefined {
  if (name === 'size')
    return {
      render: (row) =>
        typeof row.size === 'number' ? <span title={`${row.size} B`}>{formatBytes(row.size)}</span> : null,
    };
  if (name === 'lastModified' || name === 'expiresAt')
    return {
      width: 240,
      render: (row) => {
        const iso = fromUnixSeconds(row[name]);
        return iso ? <time dateTime={iso}>{formatTime(iso, language)}</time> : null;
      },
    };
  return undefined;
}

function bytesOf(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function ObjectResultExtras({ result }: { result: StatementResult }) {
  const t = useT();
  const toast = useToast();
  const { language } = useLanguage();
  if (!isObjectResult(result) || result.status !== 'succeeded') return null;
  const row = (result.rows?.[0] ?? {}) as Row;
  const objectKey = typeof row.objectKey === 'string' ? row.objectKey : '';
  const body =
    result.file ??
    (result.media ? { ...result.media, name: objectKey.split('/').pop() || 'download' } : undefined);
  const download = () => {
    if (!body) return;
    const blob = new Blob([bytesOf(body.base64)], { type: body.contentType });
    saveFile({ blob, fileName: 'name' in body ? body.name : 'download', text: () => blob.text() });
    toast(t('objects.downloaded', { name: 'name' in body ? body.name : 'download' }));
  };
  const signedUrl =
    typeof row.signedUrl === 'string' && (result.rows?.length ?? 0) === 1 ? row.signedUrl : undefined;
  const expiresAt = fromUnixSeconds(row.expiresAt);
  const copy = async () => {
    if (!signedUrl) return;
    try {
      await navigator.clipboard.writeText(signedUrl);
      toast(t('objects.copied'));
    } catch {
      toast(t('objects.copyFailed'));
    }
  };
  return (
    <div className="object-result">
      {body ? (
        <Button onClick={download}>{t('objects.download', { name: 'name' in body ? body.name : '' })}</Button>
      ) : null}
      {typeof result.value === 'string' ? <pre className="raw-json">{result.value}</pre> : null}
      {signedUrl ? (
        <div className="signed-url">
          <input
            readOnly
            value={signedUrl}
            aria-label={t('objects.signedUrl')}
            className="mono"
            onFocus={(e) => e.target.select()}
          />
          <Button onClick={copy}>{t('objects.copy')}</Button>
          {'method' in row ? null : (
            <a href={signedUrl} target="_blank" rel="noreferrer noopener">
              {t('objects.open')}
            </a>
          )}
          {expiresAt ? (
            <span className="muted small">
              {t('objects.expires', { at: formatTime(expiresAt, language) })}
            </span>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
