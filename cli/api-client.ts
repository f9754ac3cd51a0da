/** Small fetch wrapper that turns Problem Details into readable CLI errors. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function callApi(url: string, init: RequestInit = {}): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    throw new ApiError(0, unreachable(new URL(url).origin, cause));
  }
  const text = await response.text();
  const body = text ? safeJson(text) : undefined;
  if (!response.ok) {
    const problem = body as {
      detail?: string;
      title?: string;
      errors?: { pointer: string; detail: string }[];
    };
    const lines = [`${response.status} ${problem?.detail ?? problem?.title ?? response.statusText}`];
    for (const error of problem?.errors ?? []) lines.push(`  ${error.pointer}: ${error.detail}`);
    throw new ApiError(response.status, lines.join('\n'));
  }
  return body;
}

/**
 * Says which address was tried and how to name another: a runtime started on another port
 * (`PORT=9150 npm start`) is reached only when told with --url or DOGU_URL.
 */
export function unreachable(origin: string, cause: string | undefined): string {
  return (
    `Could not reach ${origin}${cause ? ` (${cause})` : ''}. Is Dogu running there? ` +
    'Name its address with --url URL or DOGU_URL=URL (npm start prints it).'
  );
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
