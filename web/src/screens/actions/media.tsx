/**
 * Media per the detection rules (docs/actions.md): image URLs as thumbnails, videos in the native
 * player (HLS `.m3u8` where the browser plays it natively, otherwise a note with the link), PDFs
 * in an embedded viewer; HTTP responses that are themselves media arrive as base64.
 */
import { useState } from 'react';
import type { MediaKind } from '../../api/types.ts';
import { Dialog } from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';

const isHls = (url: string) => /\.m3u8(\?|#|$)/i.test(url);

/** Chrome and Firefox have no native HLS; Safari (and Chrome on Android) do. */
export function canPlayHls(): boolean {
  if (typeof document === 'undefined') return false;
  const video = document.createElement('video');
  return typeof video.canPlayType === 'function' && video.canPlayType('application/vnd.apple.mpegurl') !== '';
}

export function MediaCell({ url, kind }: { url: string; kind: MediaKind }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url))
    return <span className="dt-null">{url ? String(url) : 'NULL'}</span>;
  if (kind === 'image') {
    return (
      <a href={url} target="_blank" rel="noreferrer noopener" className="media-thumb-link" title={url}>
        <img src={url} alt={t('result.imageAlt', { url })} loading="lazy" className="media-thumb" />
      </a>
    );
  }
  return (
    <>
      <button type="button" className="btn btn-quiet btn-small" onClick={() => setOpen(true)} title={url}>
        {kind === 'video' ? `▶ ${t('result.play')}` : `📄 ${t('result.openPdf')}`}
      </button>
      <Dialog open={open} title={url} onCancel={() => setOpen(false)}>
        <MediaView kind={kind} src={url} />
      </Dialog>
    </>
  );
}

export function MediaView({
  kind,
  src,
  contentType,
}: {
  kind: MediaKind;
  src: string;
  contentType?: string;
}) {
  const t = useT();
  if (kind === 'image') return <img src={src} alt={t('result.imageResult')} className="media-full" />;
  if (kind === 'pdf') {
    return (
      <object data={src} type="application/pdf" className="media-pdf" aria-label={t('result.pdfResult')}>
        <a href={src} target="_blank" rel="noreferrer noopener">
          {t('result.openPdf')}
        </a>
      </object>
    );
  }
  if (isHls(src) && !canPlayHls()) {
    return (
      <div className="notice notice-info">
        <p>{t('result.hlsNote')}</p>
        <a href={src} target="_blank" rel="noreferrer noopener" className="mono">
          {src}
        </a>
      </div>
    );
  }
  return (
    <video
      controls
      preload="metadata"
      className="media-video"
      src={src}
      {...(contentType ? { type: contentType } : {})}
    />
  );
}
