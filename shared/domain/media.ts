/**
 * Spec 1, result display: a result string that is a URL of an image, a video
 * or a PDF is shown with the matching UI. Decided from the URL alone (never
 * fetched): the extension of its path, or a known video-streaming domain.
 */
import type { Column, MediaKind } from './model.ts';

const extensionKinds: Readonly<Record<string, MediaKind>> = {
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  gif: 'image',
  webp: 'image',
  svg: 'image',
  bmp: 'image',
  avif: 'image',
  ico: 'image',
  mp4: 'video',
  m3u8: 'video',
  webm: 'video',
  mov: 'video',
  m4v: 'video',
  ogv: 'video',
  pdf: 'pdf',
};

/** Sites whose pages are videos; a URL on one of them (or a subdomain) is shown as a video. */
export const videoStreamingDomains: readonly string[] = [
  'youtube.com',
  'youtu.be',
  'youtube-nocookie.com',
  'vimeo.com',
  'dailymotion.com',
  'dai.ly',
  'twitch.tv',
  'wistia.com',
  'wistia.net',
  'loom.com',
  'streamable.com',
  'tiktok.com',
  'bilibili.com',
  'nicovideo.jp',
  'nico.ms',
];

/** Cheap pre-check: most result strings are not URLs, and `new URL` throwing is slow on large tables. */
const looksLikeHttpUrl = /^\s*https?:\/\//i;
const pathExtension = /\.([a-z0-9]+)$/;

export function detectMedia(value: unknown): MediaKind | undefined {
  if (typeof value !== 'string' || !looksLikeHttpUrl.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  // The path only: `?format=png` or `#x.mp4` say nothing about what the URL serves.
  const extension = pathExtension.exec(url.pathname.toLowerCase())?.[1];
  const byExtension = extension === undefined ? undefined : extensionKinds[extension];
  if (byExtension) return byExtension;
  return isVideoStreamingHost(url.hostname) ? 'video' : undefined;
}

function isVideoStreamingHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return videoStreamingDomains.some((domain) => host === domain || host.endsWith(`.${domain}`));
}

/**
 * Marks string columns whose non-empty values are all media URLs of one kind.
 * A column with no such value, or with mixed kinds, stays as it is: showing a
 * player for half a column would be more confusing than a link.
 */
export function annotateMediaColumns(
  columns: readonly Column[],
  rows: readonly Record<string, unknown>[],
): Column[] {
  return columns.map((column) => {
    if (column.type !== 'string') return column;
    const kind = commonMediaKind(rows.map((row) => row[column.name]));
    return kind ? { ...column, media: kind } : column;
  });
}

function commonMediaKind(values: readonly unknown[]): MediaKind | undefined {
  let kind: MediaKind | undefined;
  for (const value of values) {
    if (value === null || value === undefined || value === '') continue;
    const detected = detectMedia(value);
    if (!detected || (kind && detected !== kind)) return undefined;
    kind = detected;
  }
  return kind;
}
