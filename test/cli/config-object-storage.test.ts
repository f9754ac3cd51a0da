/**
 * `dogu apply` files with object-storage data sources and actions: secrets only by environment
 * variable (secretAccessKeyFromEnv, serviceAccountKeyFromEnv), keyless modes, storage actions.
 */
import { describe, expect, it } from 'vitest';
import { configJsonSchemaText } from '../../cli/config/json-schema.ts';
import { ConfigFileError, parseConfigText } from '../../cli/config/load.ts';

const file = `version: 1
project: shop
dataSources:
  - id: files
    name: Files
    kind: s3
    environments:
      prod:
        region: ap-northeast-1
        accessKeyId: AKIAEXAMPLE
        secretAccessKeyFromEnv: FILES_SECRET_KEY
      staging:
        region: ap-northeast-1
        authentication: oidc
        audience: dogu-storage
        roleArn: arn:aws:iam::123456789012:role/dogu-shop-staging
  - id: archive
    name: Archive
    kind: gcs
    environments:
      prod:
        authentication: workload-identity
        provider: projects/123456789/locations/global/workloadIdentityPools/dogu/providers/dogu-oidc
        serviceAccount: dogu-files@acme-prod.iam.gserviceaccount.com
      staging:
        serviceAccountKeyFromEnv: ARCHIVE_KEY
actions:
  - id: share
    name: Share
    kind: storage
    dataSourceId: files
    operation: signed-url
    bucket: "{{ vars.bucket }}"
    objectKey: "exports/{{ name }}"
    method: PUT
    parameters:
      - { name: name, kind: text, required: true }
`;

describe('object storage in dogu.yaml', () => {
  it('takes both kinds, both modes each, and storage actions with defaults', () => {
    const { config } = parseConfigText(file, 'dogu.yaml');
    expect(config.dataSources.map((d) => d.kind)).toEqual(['s3', 'gcs']);
    expect(config.dataSources[0]!.environments.prod).toMatchObject({
      authentication: 'keys',
      secretAccessKeyFromEnv: 'FILES_SECRET_KEY',
      forcePathStyle: false,
    });
    expect(config.actions[0]).toMatchObject({
      kind: 'storage',
      operation: 'signed-url',
      method: 'PUT',
      expiresInSeconds: 3600,
    });
    const schema = JSON.parse(configJsonSchemaText());
    expect(schema.$defs.S3Connection.properties.secretAccessKeyFromEnv.type).toBe('string');
    expect(schema.$defs.GcsConnection.properties.serviceAccountKeyFromEnv.type).toBe('string');
  });

  it('refuses a secret written in the file and a malformed provider, with their places', () => {
    const broken = file
      .replace('secretAccessKeyFromEnv: FILES_SECRET_KEY', 'secretAccessKey: wJalrXUtnFEMI')
      .replace('providers/dogu-oidc', 'provider/dogu-oidc');
    let problems: string[] = [];
    try {
      parseConfigText(broken, 'dogu.yaml');
    } catch (error) {
      if (!(error instanceof ConfigFileError)) throw error;
      problems = error.message.split('\n').slice(1);
    }
    expect(problems).toEqual([
      '  dogu.yaml:11:26: dataSources[0].environments.prod.secretAccessKey: a secretAccessKey is never written in the file: use secretAccessKeyFromEnv: ENV_VAR_NAME',
      '  dogu.yaml:23:19: dataSources[1].environments.prod.provider: must be projects/<project number>/locations/global/workloadIdentityPools/<pool>/providers/<provider>',
    ]);
    expect(problems.join('\n')).not.toContain('wJalrXUtnFEMI');
  });
});
