/** The service's own IdP (spec 5.2): its keys live in Secrets Manager on AWS. */
import type { OwnIdp } from '../../domain/identity/own-idp.ts';
import type { ServiceGroup } from '../services.ts';

export const ownIdp: ServiceGroup<{ idp: OwnIdp }> = {
  name: 'own-idp',
  pick: ({ idp }) => ({ idp }),
  async createOnAws(core) {
    const { createAwsOwnIdp } = await import('../../adapters/idp/own-idp-services.ts');
    return { idp: createAwsOwnIdp({ clock: core.clock, env: process.env }) };
  },
};
