/**
 * The `explain-problem` prompt: turns a Problem Details answer of Dogu (RFC 9457) into a request the
 * assistant's model can answer for its person — what went wrong, which field, and what to do next.
 */
const fieldGuide = [
  "- `status` is the HTTP status; `code` is Dogu's stable error code (docs/api.md#errors).",
  '- `detail` says in words what happened and usually what to do.',
  '- `errors` lists each offending field or argument: `pointer` (e.g. #/arguments/limit) and `detail`.',
  '- `reason: not_published` means a protected environment has no published version of the action.',
  '- 401: the token is missing, expired or revoked — sign in again. 403: the caller lacks a right or',
  '  the action is restricted. 409: the state forbids it now. 422: an argument or definition is invalid.',
  '  429: too many requests — wait `retryAfterSeconds`.',
].join('\n');

export const problemPrompt = {
  definition: {
    name: 'explain-problem',
    title: 'Explain a Dogu error',
    description: 'Explains a Problem Details error from Dogu and what to do about it.',
    arguments: [{ name: 'problem', description: 'The error as JSON (Problem Details)', required: true }],
  },
  messages(args: Record<string, string>) {
    const problem = (args.problem ?? '').slice(0, 20_000);
    return {
      description: 'Explain a Dogu error',
      messages: [
        {
          role: 'user' as const,
          content: {
            type: 'text' as const,
            text:
              'Dogu, an internal-tools service, answered with this error (Problem Details, RFC 9457):\n\n' +
              `${problem}\n\nHow to read it:\n${fieldGuide}\n\n` +
              'Explain to me in two or three sentences what went wrong and what I should do next. If a field ' +
              'is named, say which value to change and how.',
          },
        },
      ],
    };
  },
};
