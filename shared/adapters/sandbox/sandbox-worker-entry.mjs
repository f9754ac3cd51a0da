// The worker thread's entry: loads the TypeScript worker through tsx (as the embedded runtime itself
// runs), wherever the process was started from.
import { register } from 'tsx/esm/api';

register();
await import('./sandbox-worker.ts');
