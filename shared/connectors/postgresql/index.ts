/** PostgreSQL (spec 2.3): SQL actions with `$n` placeholders. */
import { sqlConnector } from '../sql/definition.ts';

export const postgresql = sqlConnector({
  kind: 'postgresql',
  label: { en: 'PostgreSQL', ja: 'PostgreSQL' },
  defaultPort: 5432,
  runtime: async (settings) => {
    const [{ sqlRuntime }, { openPostgresConnector }] = await Promise.all([
      import('../sql/runtime.ts'),
      import('./postgres-connector.ts'),
    ]);
    return sqlRuntime('postgresql', openPostgresConnector, settings);
  },
});
