/** What clients learn of each kind: labels, the action kind, the forms, the secret fields. */
import { connectors } from './index.ts';

export function connectorKinds() {
  return connectors.map((c) => ({
    kind: c.kind,
    actionKind: c.actionKind,
    label: c.label,
    secretFields: c.secretFields,
    authAction: c.form.authAction,
    connectionFields: c.form.connection,
    actionFields: c.form.action,
  }));
}
