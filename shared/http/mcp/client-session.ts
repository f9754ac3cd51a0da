/**
 * Which MCP client is calling, across the stateless requests of one connection (decision 0196). The
 * server keeps no session (Lambda: any request may reach any instance), so the client's name from
 * `initialize` travels in the `Mcp-Session-Id` it is given and sends back on every later request.
 * The name is self-declared — as `clientInfo` itself is — so it is only recorded, never trusted.
 */
const prefix = 'dogu-mcp.';
const maxName = 100;

export const unknownClient = 'unknown';

export function sessionIdFor(clientName: string): string {
  return prefix + Buffer.from(cleanName(clientName), 'utf8').toString('base64url');
}

export function clientOfSessionId(sessionId: string | undefined): string | undefined {
  if (!sessionId?.startsWith(prefix)) return undefined;
  const name = Buffer.from(sessionId.slice(prefix.length), 'base64url').toString('utf8');
  return name ? cleanName(name) : undefined;
}

/** Printable, bounded: it lands in execution records and the audit log. */
export function cleanName(name: string): string {
  const printable = name
    .replace(/\p{Cc}/gu, '')
    .trim()
    .slice(0, maxName);
  return printable || unknownClient;
}

/** The `clientInfo.name` of an initialize request in a JSON-RPC body (one message or a batch). */
export function initializeClientName(body: unknown): string | undefined {
  const messages = Array.isArray(body) ? body : [body];
  for (const message of messages) {
    const m = message as { method?: unknown; params?: { clientInfo?: { name?: unknown } } } | null;
    if (m?.method === 'initialize' && typeof m.params?.clientInfo?.name === 'string') {
      return cleanName(m.params.clientInfo.name);
    }
  }
  return undefined;
}
