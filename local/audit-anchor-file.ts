/**
 * The embedded runtime's audit anchors (decision 0182): one JSON line of every project's chain
 * head, appended to `<data directory>.audit-anchors.jsonl` beside (not inside) the data directory,
 * every `DOGU_AUDIT_ANCHOR_MINUTES` (default 10) and at shutdown, when a head moved since the last
 * line. The file is only ever opened for appending; keep it (or copy it) where the data directory's
 * users cannot write, e.g. `chattr +a` or a log shipper.
 */
import { appendFile } from 'node:fs/promises';
import { logger } from '../shared/commons/logger.ts';
import type { AuditLog } from '../shared/domain/audit.ts';
import { type AnchorRecord, type AnchorSink, anchorHeads } from '../shared/domain/audit-chain/anchor.ts';

export const anchorFileOf = (dataDir: string) => `${dataDir.replace(/[\\/]+$/, '')}.audit-anchors.jsonl`;

export function fileAnchorSink(path: string): AnchorSink {
  return {
    async write(record: AnchorRecord) {
      await appendFile(path, `${JSON.stringify(record)}\n`, { mode: 0o600, flag: 'a' });
    },
  };
}

export function anchorMinutesFromEnv(env: NodeJS.ProcessEnv): number {
  const minutes = Number(env.DOGU_AUDIT_ANCHOR_MINUTES ?? 10);
  return Number.isFinite(minutes) && minutes > 0 ? minutes : 10;
}

/** Anchors on a timer and once more at `stop()`; a line only when some head moved. */
export function startAnchoring(audit: Pick<AuditLog, 'heads'>, path: string, everyMinutes: number) {
  const sink = fileAnchorSink(path);
  let lastHeads = '';
  let running: Promise<void> = Promise.resolve();
  const anchorNow = () => {
    running = running.then(async () => {
      try {
        await anchorHeads(
          { heads: async () => audit.heads() },
          {
            async write(record) {
              const heads = JSON.stringify(record.heads);
              if (heads === lastHeads) return;
              await sink.write(record);
              lastHeads = heads;
            },
          },
          new Date(),
        );
      } catch (error) {
        logger.error('audit anchor could not be written', { error: error as Error, file: path });
      }
    });
    return running;
  };
  const timer = setInterval(() => void anchorNow(), everyMinutes * 60_000);
  timer.unref();
  return {
    anchorNow,
    async stop() {
      clearInterval(timer);
      await anchorNow();
    },
  };
}
