/**
 * A view's Markdown as HTML: markdown-it with HTML off (raw HTML is shown as text and only safe link
 * schemes survive), each `{{ }}` hole's value inserted as text, and images only from the project's
 * allowed hosts (decision 0155): any other image becomes a note naming its host, never an <img>.
 */
import MarkdownIt from 'markdown-it';
import { splitTemplate } from '../../../../../../shared/domain/views/expression-syntax.ts';
import { evaluate } from '../../expressions/evaluate.ts';

/** What may be loaded, and the note shown in place of an image that may not. */
export interface ImagePolicy {
  allows(url: string): boolean;
  blocked(url: string): string;
}

/** Nothing is loaded from anywhere: the reading when no policy is given. */
const noImages: ImagePolicy = { allows: () => false, blocked: (url) => `Image not loaded: ${url}` };

interface RenderEnv {
  policy: ImagePolicy;
  /** The holes' values by placeholder index, and the placeholder's nonce (see renderMarkdownTemplate). */
  values: string[];
  nonce: string;
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
const defaultImage = markdown.renderer.rules.image!;
markdown.renderer.rules.image = (tokens, idx, options, rawEnv, self) => {
  const env = rawEnv as unknown as RenderEnv;
  // The address as the browser would read it: holes filled with their values.
  const src = fillHoles(String(tokens[idx]!.attrGet('src') ?? ''), env, (value) => value);
  if (env.policy.allows(src)) return defaultImage(tokens, idx, options, rawEnv, self);
  return `<span class="view-blocked-media" role="note" title="${escapeHtml(src)}">${escapeHtml(env.policy.blocked(src))}</span>`;
};

const fillHoles = (html: string, env: RenderEnv, encode: (value: string) => string) =>
  env.nonce
    ? html.replace(new RegExp(`dogu${env.nonce}hole(\\d+)x`, 'g'), (_, i: string) =>
        encode(env.values[Number(i)] ?? ''),
      )
    : html;

export function renderMarkdown(source: string, policy: ImagePolicy = noImages): string {
  const env: RenderEnv = { policy, values: [], nonce: '' };
  return markdown.render(source, env as unknown as Record<string, unknown>);
}

/**
 * The author's Markdown with each `{{ }}` hole's value inserted as text, never as Markdown source: a
 * value from the database cannot add an image, a link or a heading (issue 25). The holes become
 * placeholders of letters and digits (nothing Markdown or linkify reads), the source is rendered, then
 * each placeholder is replaced by its value, HTML-escaped.
 */
export function renderMarkdownTemplate(
  template: string,
  context: Record<string, unknown>,
  policy: ImagePolicy = noImages,
): string {
  const { parts } = splitTemplate(template);
  if (!parts.some((part) => part.kind === 'hole')) return renderMarkdown(template, policy);
  const env: RenderEnv = { policy, values: [], nonce: Math.random().toString(36).slice(2, 10) };
  const source = parts
    .map((part) => {
      if (part.kind === 'text') return part.text;
      env.values.push(textOf(evaluate(part.expression.trim(), context)));
      return `dogu${env.nonce}hole${env.values.length - 1}x`;
    })
    .join('');
  return fillHoles(markdown.render(source, env as unknown as Record<string, unknown>), env, escapeHtml);
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
