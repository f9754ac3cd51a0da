/**
 * Text (a template), Markdown (markdown-it with HTML off: raw HTML is shown as text and only safe
 * link schemes survive), media (http/https only) and buttons whose events run on click.
 */
import MarkdownIt from 'markdown-it';
import { useMemo, useState } from 'react';
import { detectMedia } from '../../../../../../shared/domain/media.ts';
import { splitTemplate } from '../../../../../../shared/domain/views/expression-syntax.ts';
import { Button } from '../../../../components/index.ts';
import { useT } from '../../../../i18n/index.tsx';
import { MediaView } from '../../../actions/media.tsx';
import { evaluate } from '../../expressions/evaluate.ts';
import type { ViewComponent } from '../../view-api.ts';
import { EventOutcomeView } from '../EventOutcomeView.tsx';
import { type EventOutcome, safeExternalUrl, templateText, useViewRuntime } from '../runtime.tsx';

type Of<T extends ViewComponent['type']> = Extract<ViewComponent, { type: T }>;

export function TextComponent({ component }: { component: Of<'text'> }) {
  const runtime = useViewRuntime();
  return <p className="view-text">{templateText(component.content, runtime.context())}</p>;
}

// `html: false` escapes any HTML in the source; markdown-it's validateLink drops javascript:,
// vbscript:, file: and non-image data: links, so the output is safe to insert.
const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false });
const defaultLinkOpen =
  markdown.renderer.rules.link_open ??
  ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
markdown.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx]!.attrSet('target', '_blank');
  tokens[idx]!.attrSet('rel', 'noopener noreferrer');
  return defaultLinkOpen(tokens, idx, options, env, self);
};

export function renderMarkdown(source: string): string {
  return markdown.render(source);
}

/**
 * The author's Markdown with each `{{ }}` hole's value inserted as text, never as Markdown source: a
 * value from the database cannot add an image, a link or a heading (issue 25). The holes become
 * placeholders of letters and digits (nothing Markdown or linkify reads), the source is rendered, then
 * each placeholder is replaced by its value, HTML-escaped.
 */
export function renderMarkdownTemplate(template: string, context: Record<string, unknown>): string {
  const { parts } = splitTemplate(template);
  if (!parts.some((part) => part.kind === 'hole')) return renderMarkdown(template);
  const nonce = Math.random().toString(36).slice(2, 10);
  const values: string[] = [];
  const source = parts
    .map((part) => {
      if (part.kind === 'text') return part.text;
      values.push(textOf(evaluate(part.expression.trim(), context)));
      return `dogu${nonce}hole${values.length - 1}x`;
    })
    .join('');
  return renderMarkdown(source).replace(new RegExp(`dogu${nonce}hole(\\d+)x`, 'g'), (_, i: string) =>
    escapeHtml(values[Number(i)] ?? ''),
  );
}

const textOf = (value: unknown): string =>
  value === undefined || value === null
    ? ''
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

export function MarkdownComponent({ component }: { component: Of<'markdown'> }) {
  const runtime = useViewRuntime();
  const context = runtime.context();
  const html = useMemo(
    () => renderMarkdownTemplate(component.content, context),
    [component.content, context],
  );
  // biome-ignore lint/security/noDangerouslySetInnerHtml: markdown-it with html:false escapes raw HTML
  return <div className="view-markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}

export function MediaComponent({ component }: { component: Of<'media'> }) {
  const t = useT();
  const runtime = useViewRuntime();
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
