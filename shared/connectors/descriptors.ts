/** What clients learn of each kind: labels, the action kind, the forms, the secret fields. */
import type { ConnectorDefinition } from './connector.ts';
import { field } from './form-field.ts';
import { connectors as registered } from './index.ts';

const viaField = field('via', 'text', 'Bridge (via)', 'ブリッジ (via)', {
  hint: {
    en: "Id of a bridge in the project's settings; empty: connect directly.",
    ja: 'プロジェクト設定のブリッジ ID。空なら直接接続します。',
  },
});

export function connectorKinds(connectors: readonly ConnectorDefinition[] = registered) {
  return connectors.map((c) => ({
    kind: c.kind,
    actionKind: c.actionKind,
    label: c.label,
    secretFields: c.secretFields,
    authAction: c.form.authAction,
    oauth: c.oauth !== undefined,
    /** The console offers a dry-run button (the execute API's `dryRun`). */
    dryRun: c.dryRun === true,
    /** The console offers a Preview button for data-changing actions (the execute API's `preview`). */
    preview: c.preview === true,
    // `via` is the seam's, not the kind's: offered wherever the kind opens its own connections.
    connectionFields: c.bridgeable ? [...c.form.connection, viaField] : c.form.connection,
    actionFields: c.form.action,
    /** Files the kind keeps as versions per environment (gRPC: protosets); null when none. */
    files: c.files
      ? {
          name: c.files.name,
          maxBytes: c.files.maxBytes,
          pinField: c.files.pinField ?? `${c.files.name}VersionId`,
        }
      : null,
  }));
}
