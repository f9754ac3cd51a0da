/** `via` comes from the seam: every kind that opens its own connections takes it; cloud kinds refuse it. */
import { describe, expect, it } from 'vitest';
import { connectorKinds } from '../../shared/connectors/descriptors.ts';
import { connectionSchemaOf } from '../../shared/connectors/schemas.ts';

describe('via in connections', () => {
  it('is accepted by the socket kinds and offered in their forms', () => {
    for (const kind of ['postgresql', 'mysql', 'http', 'grpc']) {
      expect(
        connectorKinds()
          .find((k) => k.kind === kind)
          ?.connectionFields.at(-1)?.name,
        kind,
      ).toBe('via');
    }
    const parsed = connectionSchemaOf('postgresql')!.safeParse({
      host: 'db.internal',
      port: 5432,
      database: 'shop',
      user: 'dogu',
      via: 'office',
    });
    expect(parsed.success && parsed.data.via).toBe('office');
    expect(
      connectionSchemaOf('postgresql')!.safeParse({ host: 'h', database: 'd', user: 'u', via: 'Not An Id' })
        .success,
    ).toBe(false);
  });

  it('is refused, in words, by kinds that call cloud APIs', () => {
    const parsed = connectionSchemaOf('athena')!.safeParse({ region: 'ap-northeast-1', via: 'office' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.find((issue) => issue.path[0] === 'via')?.message).toBe(
      'Amazon Athena data sources call cloud APIs and cannot go through a bridge',
    );
    expect(
      connectorKinds()
        .find((k) => k.kind === 'athena')
        ?.connectionFields.some((f) => f.name === 'via'),
    ).toBe(false);
  });
});
