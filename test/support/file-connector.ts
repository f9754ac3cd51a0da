/**
 * A data-source kind for tests that keeps files, as the gRPC kind keeps protosets. Its files are
 * text: a first line `SAMPLE` and one `service <name>` per line; anything else is refused. Its
 * actions answer which version they read and what it says.
 */
import * as z from 'zod';
import type { ConnectorDefinition, ConnectorRuntimeModule } from '../../shared/connectors/connector.ts';
import { DoguError } from '../../shared/domain/errors.ts';
import type { DataSourceFiles } from '../../shared/domain/ports.ts';

export const sampleFileLimit = 64 * 1024;

export function sampleFile(...services: string[]): Uint8Array {
  return new TextEncoder().encode(['SAMPLE', ...services.map((s) => `service ${s}`)].join('\n'));
}

async function readSample(files: DataSourceFiles | undefined, pin: unknown) {
  if (!files) throw new DoguError('data_source_error', 'No files were handed to the engine.');
  const read = await files.read(typeof pin === 'string' && pin ? pin : undefined);
  if (!read) throw new DoguError('data_source_error', 'No sample file has been uploaded.');
  return read;
}

export const sampleFileConnector: ConnectorDefinition = {
  kind: 'sample-files',
  actionKind: 'sample-read',
  label: { en: 'Sample files', ja: 'サンプルファイル' },
  connection: z.object({ sampleVersionId: z.string().optional() }),
  action: {},
  secretFields: [],
  form: { connection: [], action: [], authAction: false },
  cloudPermissions: [],
  actionTexts: () => [],
  files: {
    name: 'sample',
    maxBytes: sampleFileLimit,
    async describe(bytes) {
      const lines = new TextDecoder('utf-8', { fatal: false }).decode(bytes).split('\n');
      if (lines[0] !== 'SAMPLE') {
        throw new DoguError(
          'argument_invalid',
          'The file is not a sample file: its first line must be SAMPLE.',
          {
            errors: [{ pointer: '#/file', detail: 'not a sample file' }],
          },
        );
      }
      const services = lines.slice(1).map((line) => /^service (\w+)$/.exec(line)?.[1]);
      if (services.length === 0 || services.some((s) => s === undefined)) {
        throw new DoguError(
          'argument_invalid',
          'The sample file names no services, or a line is not `service <name>`.',
          {
            errors: [{ pointer: '#/file', detail: 'bad service line' }],
          },
        );
      }
      return { services };
    },
  },
};

/** Its runtime, as `<kind>/runtime.ts` would export it (handed to the test runtime directly). */
export const sampleFileRuntime: ConnectorRuntimeModule = {
  createRuntime() {
    return {
      async run(run) {
        const { versionId, bytes } = await readSample(run.files, run.connection.sampleVersionId);
        return [
          {
            title: 'sample',
            status: 'succeeded',
            columns: [
              { name: 'versionId', type: 'string' },
              { name: 'text', type: 'string' },
            ],
            rows: [{ versionId, text: new TextDecoder().decode(bytes) }],
            rowCount: 1,
            messages: [],
          },
        ];
      },
      async testConnection(check) {
        await readSample(check.files, check.connection.sampleVersionId);
      },
    };
  },
};
