/** The scheduling screens: cron jobs (list, new, detail, edit), reservations, batches, executions. */
import { lazyScreen } from '../lazy-screen.ts';
import type { Screen } from '../screen.ts';
import './scheduling.css';

const base = '/p/:projectId/e/:environmentId';

export const schedulingScreens: Screen[] = [
  {
    path: `${base}/cron-jobs`,
    nav: { labelKey: 'nav.scheduling.cronJobs', order: 40 },
    component: lazyScreen(() => import('./CronJobListScreen.tsx'), 'CronJobListScreen'),
  },
  {
    path: `${base}/cron-jobs/new`,
    component: lazyScreen(() => import('./CronJobEditScreen.tsx'), 'CronJobEditScreen'),
  },
  {
    path: `${base}/cron-jobs/:jobId`,
    component: lazyScreen(() => import('./CronJobDetailScreen.tsx'), 'CronJobDetailScreen'),
  },
  {
    path: `${base}/cron-jobs/:jobId/edit`,
    component: lazyScreen(() => import('./CronJobEditScreen.tsx'), 'CronJobEditScreen'),
  },
  {
    path: `${base}/reservations`,
    nav: { labelKey: 'nav.scheduling.reservations', order: 41 },
    component: lazyScreen(() => import('./ReservationsScreen.tsx'), 'ReservationsScreen'),
  },
  {
    path: `${base}/batches`,
    nav: { labelKey: 'nav.scheduling.batches', order: 42 },
    component: lazyScreen(() => import('./BatchListScreen.tsx'), 'BatchListScreen'),
  },
  {
    path: `${base}/batches/:batchId`,
    component: lazyScreen(() => import('./BatchDetailScreen.tsx'), 'BatchDetailScreen'),
  },
  {
    path: `${base}/actions/:actionId/batch`,
    component: lazyScreen(() => import('./BatchScreen.tsx'), 'BatchScreen'),
  },
  {
    path: `${base}/executions/:executionId`,
    component: lazyScreen(() => import('./ExecutionStatusScreen.tsx'), 'ExecutionStatusScreen'),
  },
];
