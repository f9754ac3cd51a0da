/** One input of a kind's generated form, labelled in English and Japanese. */
import type { FormField } from './connector.ts';

export const field = (
  name: string,
  type: FormField['type'],
  en: string,
  ja: string,
  extra: Partial<FormField> = {},
): FormField => ({ name, type, label: { en, ja }, ...extra });
