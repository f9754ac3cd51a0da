/** Notifications of failed runs and their settings (docs/notifications.md): SES and HTTP channels on AWS. */
import type { NotificationCenter } from '../../domain/notifications/center.ts';
import type { ServiceGroup } from '../services.ts';
import { secretValues } from './secret-values.ts';

export const notifications: ServiceGroup<{ notifications: NotificationCenter }> = {
  name: 'notifications',
  pick: ({ notifications }) => ({ notifications }),
  async createOnAws(core, use) {
    const [
      { DynamoDbNotificationStore },
      { HttpNotificationChannels },
      { SesMailer },
      { scheduledDrainWakeups },
      { NotificationCenter },
      { requiredEnv, sharedDocumentClient },
      { secrets },
    ] = await Promise.all([
      import('../../adapters/dynamodb/dynamodb-notification-store.ts'),
      import('../../adapters/notifications/http-notification-channels.ts'),
      import('../../adapters/notifications/ses-mailer.ts'),
      import('../../adapters/notifications/timer-wakeups.ts'),
      import('../../domain/notifications/center.ts'),
      import('../aws-core.ts'),
      use(secretValues),
    ]);
    return {
      // First attempts run in the container that saw the event; retries and anything a frozen
      // container left behind are sent by the minute drain (decision 0031).
      notifications: new NotificationCenter({
        notificationStore: new DynamoDbNotificationStore(
          sharedDocumentClient(),
          requiredEnv('DOGU_TABLE_NAME'),
        ),
        channels: new HttpNotificationChannels(new SesMailer()),
        wakeups: scheduledDrainWakeups,
        secrets,
        clock: core.clock,
        ids: core.ids,
      }),
    };
  },
};
