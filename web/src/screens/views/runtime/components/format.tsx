/** How a table cell or a detail field shows a value (`format` in the definition; `auto` by default). */
import type { ReactNode } from 'react';
import { detectMedia } from '../../../../../../shared/domain/media.ts';
import { browserTimeZone } from '../../../../i18n/format-time.ts';
import { MediaCell } from '../../../actions/media.tsx';
import { BlockedMedia, useOutsideHosts } from '../outside-hosts.tsx';
import { fieldOf, plainText } from './row-fields.ts';

export { fieldOf, plainText };

export type ValueFormat = 'auto' | 'text' | 'number' | 'date' | 'datetime' | 'boolean' | 'json' | 'media';

export function hasField(rows: readonly unknown[], path: string): boolean {
  const head = path.split('.')[0]!;
  return rows.some((row) => row !== null && typeof row === 'object' && Object.hasOwn(row, head));
}

export function formatValue(value: unknown, format: ValueFormat = 'auto'): ReactNode {
  if (value === null || value === undefined) return <span className="dt-null">—</span>;
  const media = format === 'media' || format === 'auto' ? detectMedia(value) : undefined;
  if (media) return <ViewMediaCell url={String(value)} kind={media} />;
  switch (format) {
    case 'number':
      return typeof value === 'number' ? value.toLocaleString() : plainText(value);
    case 'date':
    case 'datetime': {
      const date = new Date(value as string);
      if (Number.isNaN(date.getTime())) return plainText(value);
      // A date-time names the zone it is shown in (decision 0085); a date has none.
      return format === 'date'
        ? date.toLocaleDateString()
        : `${date.toLocaleString()} (${browserTimeZone()})`;
    }
    case 'boolean':
      return value ? '✓' : '✗';
    case 'json':
      return <code className="view-json">{JSON.stringify(value)}</code>;
    default:
      return plainText(value);
  }
}

/** A media value in a view's table or detail: shown only from an allowed host (decision 0155). */
function ViewMediaCell({ url, kind }: { url: string; kind: NonNullable<ReturnType<typeof detectMedia>> }) {
  const outside = useOutsideHosts();
  if (/^https?:\/\//i.test(url) && !outside.allows(url)) return <BlockedMedia url={url} />;
  return <MediaCell url={url} kind={kind} />;
}
