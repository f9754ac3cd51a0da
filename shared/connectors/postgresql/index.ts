/** PostgreSQL (spec 2.3): SQL actions with `$n` placeholders. */
import { sqlConnector } from '../sql/definition.ts';

export const postgresql = sqlConnector({
  kind: 'postgresql',
  label: { en: 'PostgreSQL', ja: 'PostgreSQL' },
  defaultPort: 5432,
  // Statements can run in a rolled-back transaction: postgres-preview.ts (decision 0185).
  preview: true,
});
