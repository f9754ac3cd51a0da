/**
 * English strings added by the hardening work: a title per server error `code` (Problem Details,
 * shared/domain/errors.ts) so failures read in the user's language, and result/form messages.
 */
export const hardeningEn: Record<string, string> = {
  'problem.bad_request': 'Bad request',
  'problem.unauthorized': 'Sign-in required',
  'problem.forbidden': 'Not allowed',
  'problem.not_found': 'Not found',
  'problem.method_not_allowed': 'Method not allowed',
  'problem.state_conflict': 'Conflicts with the current state',
  'problem.payload_too_large': 'Request too large',
  'problem.unsupported_media_type': 'Unsupported content type',
  'problem.argument_invalid': 'Invalid arguments',
  'problem.invalid_definition': 'Invalid definition',
  'problem.data_source_error': 'The data source reported an error',
  'problem.execution_timeout': 'The run timed out',
  'problem.internal_error': 'Internal error',
  'problem.service_unavailable': 'Service unavailable',
  'problem.request_timeout': 'The request took too long to arrive',
  'problem.header_too_large': 'Request headers too large',
  'problem.too_many_requests': 'Too many requests; wait a moment',
  'problem.http_error': 'The request failed',

  'result.statementError': 'This statement failed: {message}',
  'param.notWholeNumber': '{value} is not a whole number; this parameter takes whole numbers only.',
  'param.belowMin': 'Must be at least {min}.',
  'param.aboveMax': 'Must be at most {max}.',

  'scheduling.batch.fileRow': 'Row in file',
  'scheduling.batch.argument': 'argument',
  'scheduling.batch.argumentColumn': 'The argument {name} of this row',

  'scheduling.form.nameRequired': 'Give the cron job a name.',
  'scheduling.form.actionRequired': 'Choose the action the cron job runs.',

  'editors.actions.permissionJavascriptAction': 'JavaScript action allowed to run it',
  'editors.actions.chooseJavascriptAction': 'Choose a JavaScript action…',
  'editors.actions.noJavascriptActions':
    '"Only a JavaScript action" needs a JavaScript action in this project; there is none yet.',

  'result.csvOfShown': 'Saves the rows shown as CSV; the action is not run again',
};
