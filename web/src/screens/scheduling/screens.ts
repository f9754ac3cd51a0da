/** The scheduling screens: cron jobs (list, new, detail, edit), reservations, batches, executions. */
import type { Screen } from '../registry.ts';
import { BatchDetailScreen } from './BatchDetailScreen.tsx';
import { BatchListScreen } from './BatchListScreen.tsx';
import { BatchScreen } from './BatchScreen.tsx';
import { CronJobDetailScreen } from './CronJobDetailScreen.tsx';
import { CronJobEditScreen } from './CronJobEditScreen.tsx';
import { CronJobListScreen } from './CronJobListScreen.tsx';
import { ExecutionStatusScreen } from './ExecutionStatusScreen.tsx';
import { ReservationsScreen } from './ReservationsScreen.tsx';
import './scheduling.css';

const base = '/p/:projectId/e/:environmentId';

export const schedulingScreens: Screen[] = [
  {
    path: `${base}/cron-jobs`,
    nav: { labelKey: 'nav.scheduling.cronJobs', order: 40 },
    component: CronJobListScreen,
  },
  { path: `${base}/cron-jobs/new`, component: CronJobEditScreen },
  { path: `${base}/cron-jobs/:jobId`, component: CronJobDetailScreen },
  { path: `${base}/cron-jobs/:jobId/edit`, component: CronJobEditScreen },
  {
    path: `${base}/reservations`,
    nav: { labelKey: 'nav.scheduling.reservations', order: 41 },
    component: ReservationsScreen,
  },
  {
    path: `${base}/batches`,
    nav: { labelKey: 'nav.scheduling.batches', order: 42 },
    component: BatchListScreen,
  },
  { path: `${base}/batches/:batchId`, component: BatchDetailScreen },
  { path: `${base}/actions/:actionId/batch`, component: BatchScreen },
  { path: `${base}/executions/:executionId`, component: ExecutionStatusScreen },
];
