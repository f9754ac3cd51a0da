/** The `<option>`s of every role, in rank order and the console's language, for a role `<select>`. */
import { useT } from '../../i18n/index.tsx';
import { roles } from './api.ts';

export function RoleOptions() {
  const t = useT();
  return (
    <>
      {roles.map((r) => (
        <option key={r} value={r}>
          {t(`identity.role.${r}`)}
        </option>
      ))}
    </>
  );
}
