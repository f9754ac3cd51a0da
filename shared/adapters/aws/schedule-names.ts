/**
 * Names of EventBridge Scheduler groups and schedules: `[0-9a-zA-Z-_.]`, at most 64 characters.
 * Names are derived, never stored, so the same job always maps to the same schedules.
 */
import { createHash } from 'node:crypto';

const maxLength = 64;
const validName = /^[0-9a-zA-Z._-]+$/;

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * `name` itself when it is valid and short enough; otherwise a readable start and a hash of the
 * whole name (96 bits: no two ids of one environment meet).
 */
export function boundedName(name: string, max: number = maxLength): string {
  if (name.length <= max && validName.test(name)) return name;
  const hash = sha256Hex(name).slice(0, 24);
  const start = name.replace(/[^0-9a-zA-Z._-]/g, '_').slice(0, Math.max(0, max - hash.length - 1));
  return start ? `${start}-${hash}` : hash.slice(0, max);
}

/**
 * One group per environment: `<prefix>.<projectId>.<environmentId>`, or `<prefix>.<hash>` when that
 * is too long. The '.' never occurs in a stage name, so IAM can grant `<prefix>.*` to this stage
 * without reaching a stage whose name merely starts the same way.
 */
export function scheduleGroupName(prefix: string, projectId: string, environmentId: string): string {
  const readable = `${prefix}.${projectId}.${environmentId}`;
  // Ids with a '.' would make two pairs read the same: those are hashed too.
  if (readable.length <= maxLength && /^[0-9a-zA-Z_-]+$/.test(projectId + environmentId)) return readable;
  const hash = sha256Hex(JSON.stringify([projectId, environmentId]));
  return `${prefix}.${hash}`.slice(0, maxLength);
}
