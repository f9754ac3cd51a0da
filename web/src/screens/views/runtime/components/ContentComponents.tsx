/**
 * Text (a template), Markdown (markdown.ts), media (http/https only, from allowed hosts) and
 * buttons whose events run on click. Links in Markdown open through the allow-list too.
 */
import { type MouseEvent, useMemo, useState } from 'react';
import { hostOf } from '../../../../../../shared/domain/allowed-hosts.ts';
import { detectMedia } from '../../../../../../shared/domain/media.ts';
import { Button } from '../../../../components/index.ts';
import { useT } from '../../../../i18n/index.tsx';
import { MediaView } from '../../../actions/media.tsx';
import type { ViewComponent } from '../../view-api.ts';
import { EventOutcomeView } from '../EventOutcomeView.tsx';
import { BlockedMedia, useOutsideHosts } from '../outside-hosts.tsx';
import { type EventOutcome, safeExternalUrl, templateText, useViewRuntime } from '../runtime.tsx';
import { renderMarkdownTemplate } from './markdown.ts';

type Of<T extends ViewComponent['type']> = Extract<ViewComponent, { type: T }>;

export function TextComponent({ component }: { component: Of<'text'> }) {
  const runtime = useViewRuntime();
  return <p className="view-text">{templateText(component.content, runtime.context())}</p>;
}

export function MarkdownComponent({ component }: { component: Of<'markdown'> }) {
  const t = useT();
  const runtime = useViewRuntime();
  const outside = useOutsideHosts();
  const context = runtime.context();
  const html = useMemo(
    () =>
      renderMarkdownTemplate(component.content, context, {
        allows: outside.allows,
        blocked: (url) => t('views.blocked.media', { host: hostOf(url) }),
      }),
    [component.content, context, outside, t],
  );
  // A link leaves the console only through the allow-list: another host asks the viewer first.
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const link = (event.target as Element).closest?.('a[href]');
    if (!(link instanceof HTMLAnchorElement) || !safeExternalUrl(link.href)) return;
    event.preventDefault();
    outside.open(link.href);
  };
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: the links inside are the targets; Enter on a link is a click
    <div
      className="view-markdown"
      onClick={onClick}
      onAuxClick={onClick}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: markdown-it with html:false escapes raw HTML
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

export function MediaComponent({ component }: { component: Of<'media'> }) {
  const t = useT();
  const runtime = useViewRuntime();
  const outside = useOutsideHosts();
  const raw = component.url.includes('{{')
    ? templateText(component.url, runtime.context())
    : runtime.bind(component.url);
  const url = safeExternalUrl(raw);
  if (!url) {
    return (
      <div className="view-problem error-banner" role="alert">
        <div className="error-banner-text">{t('views.error.unsafeUrl', { url: String(raw ?? '') })}</div>
      </div>
    );
  }
  if (!outside.allows(url)) return <BlockedMedia url={url} />;
  const kind = component.kind ?? (detectMedia(url) === 'video' ? 'video' : 'image');
  if (kind === 'audio') {
    // biome-ignore lint/a11y/useMediaCaption: user media, captions are not known
    return <audio controls src={url} className="view-media" />;
  }
  return <MediaView kind={kind} src={url} />;
}

export function ButtonComponent({ component }: { component: Of<'button'> }) {
  const runtime = useViewRuntime();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<EventOutcome>();
  return (
    <div className="view-button">
      <Button
        variant={component.variant ?? 'secondary'}
        busy={busy}
        onClick={async () => {
          setBusy(true);
          setOutcome(undefined);
          setOutcome(await runtime.runEvents(component.events));
          setBusy(false);
        }}
      >
        {templateText(component.label, runtime.context())}
      </Button>
      <EventOutcomeView outcome={outcome} />
    </div>
  );
}
