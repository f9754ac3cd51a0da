/** The zod schema of one allow-list entry: its problem names the entry; the value is normalised. */
import * as z from 'zod';
import { formatAllowedHost, parseAllowedHost } from './allowed-hosts.ts';

export const allowedHostSchema = z
  .string()
  .max(300)
  .transform((text, context) => {
    const parsed = parseAllowedHost(text);
    if ('problem' in parsed) {
      context.addIssue({ code: 'custom', message: parsed.problem });
      return z.NEVER;
    }
    return formatAllowedHost(parsed);
  })
  .meta({
    description:
      'A host name or IP address, optionally *. before a name (its subdomains) and :port (without one: the default port of http or https).',
    examples: ['images.example.com', '*.example.com', 'intranet.example.com:8443'],
  });
