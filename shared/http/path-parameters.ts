/**
 * Path parameters are ids (or a time, or a version number): checked once here for every route,
 * before anything reads the store with them. A 1,100-character id used to reach the store as a key
 * and fail there with a 500 (DynamoDB keys hold at most 1,024 bytes); a control character has no
 * place in any id. Routes refuse what they cannot find with 404 as before.
 */
import { badRequest } from '../domain/errors.ts';

/** Far above every id Dogu makes (resource ids ≤ 63, generated ids ≤ 40), and a third of a key. */
export const maxPathParameterLength = 128;

const isControlCharacter = (code: number) => code < 0x20 || code === 0x7f;

export function checkPathParameters(parameters: Readonly<Record<string, string | undefined>>): void {
  for (const [name, value] of Object.entries(parameters)) {
    if (value === undefined) continue;
    if (value.length === 0) throw badRequest(`The path parameter '${name}' is empty.`);
    if (value.length > maxPathParameterLength) {
      throw badRequest(
        `The path parameter '${name}' is ${value.length} characters long; at most ${maxPathParameterLength} are allowed.`,
      );
    }
    if ([...value].some((char) => isControlCharacter(char.codePointAt(0)!))) {
      throw badRequest(`The path parameter '${name}' contains a control character.`);
    }
  }
}
