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
    throw new ApiError(
      0,
      `Could not reach ${new URL(url).origin}${cause ? ` (${cause})` : ''}. Is Dogu running?`,
    );
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

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
