import { v7 as uuidv7 } from 'uuid';
import type { IdGenerator } from '../domain/ports.ts';

/** UUIDv7 (time-ordered) without dashes, behind a readable prefix: `exe_0193…`. */
export const uuidV7Ids: IdGenerator = {
  next: (prefix) => `${prefix}_${uuidv7().replaceAll('-', '')}`,
};

export const systemClock = { now: () => new Date() };
