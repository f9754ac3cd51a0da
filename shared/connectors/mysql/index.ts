/** MySQL and MariaDB (spec 2.3): SQL actions with `?` placeholders. */
import { sqlConnector } from '../sql/definition.ts';

export const mysql = sqlConnector({
  kind: 'mysql',
  label: { en: 'MySQL / MariaDB', ja: 'MySQL / MariaDB' },
  defaultPort: 3306,
  // Statements can run in a rolled-back transaction: mysql-preview.ts (decision 0185).
  preview: true,
});
