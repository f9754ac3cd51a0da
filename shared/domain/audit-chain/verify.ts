/**
 * Checks a project's audit chain as it is read, oldest first by time (decision 0181). Time order
 * and chain order differ where two appends raced or an entry was recorded with an earlier time, so
 * entries wait here until the one before them in the chain has been checked. The first problem
 * found names the entry:
 * - changed: its hash does not match its fields, or the next entry was chained to another hash;
 * - removed: a place in the chain (`seq`) that no entry holds, or the head names a later place;
 * - inserted: an entry without a link among chained ones, a second entry at a place, or one past
 *   the head.
 * Entries recorded before the project's chain began have no link; they are counted, not checked.
 */
import type { AuditEntry, ChainHead, ChainLink } from '../audit.ts';
import { entryHash, genesisHash } from './link.ts';

export type ChainProblemKind = 'changed' | 'removed' | 'inserted';

export interface ChainProblem {
  kind: ChainProblemKind;
  /** The place in the chain, where known. */
  seq?: number;
  /** The entry changed or inserted, or (removed) the last good entry before the gap. */
  entryId?: string;
  message: string;
}

export interface ChainVerification {
  ok: boolean;
  /** Entries whose link was checked. */
  checked: number;
  /** Entries before the chain began (no link), not covered. */
  unchained: number;
  /** The last entry found good. */
  last?: { seq: number; entryId: string; hash: string };
  problem?: ChainProblem;
}

type Linked = AuditEntry & { chain: ChainLink };

export class ChainVerifier {
  private readonly waiting = new Map<number, Linked[]>();
  private expected: number | undefined;
  private prevHash = genesisHash;
  private checked = 0;
  private unchained = 0;
  private chainedSeen = false;
  private last: ChainVerification['last'];
  private problem: ChainProblem | undefined;

  /** `fromId`: start at that entry, trusting the hash it was chained to; earlier places are skipped. */
  constructor(private readonly fromId?: string) {
    if (fromId === undefined) this.expected = 1;
  }

  /** Takes the next entry in time order; false once a problem is found (stop reading). */
  add(entry: AuditEntry): boolean {
    if (this.problem) return false;
    const chain = entry.chain;
    if (!chain) {
      // Before the start (or before any link): an entry of the time before the chain.
      if (!this.chainedSeen || this.expected === undefined) this.unchained++;
      else
        this.fail(
          'inserted',
          `Entry ${entry.id} has no link in the chain: it was not appended by Dogu.`,
          entry.id,
        );
      return !this.problem;
    }
    this.chainedSeen = true;
    if (this.expected === undefined && entry.id === this.fromId) {
      this.startSeq = chain.seq;
      this.expected = chain.seq;
      this.prevHash = chain.prevHash;
      for (const seq of this.waiting.keys()) if (seq < chain.seq) this.waiting.delete(seq);
    }
    if (this.expected !== undefined && chain.seq < this.expected) {
      // Before the start given with --from: not checked. Otherwise that place is already taken.
      if (chain.seq < this.startSeq) return true;
      this.fail(
        'inserted',
        `Entry ${entry.id} claims place #${chain.seq}, which another entry holds.`,
        entry.id,
        chain.seq,
      );
      return false;
    }
    const atPlace = this.waiting.get(chain.seq) ?? [];
    atPlace.push(entry as Linked);
    this.waiting.set(chain.seq, atPlace);
    this.drain();
    return !this.problem;
  }

  private startSeq = 1;
  private finishing = false;

  /** Checks every waiting entry whose place is next. */
  private drain(): void {
    while (!this.problem && this.expected !== undefined && this.waiting.has(this.expected)) {
      const seq = this.expected;
      const candidates = this.waiting.get(seq)!;
      const next = this.waiting.get(seq + 1);
      // A place is checked once the next one is here (or the reading is over): if two entries
      // claim it, the one the next entry was chained to is the genuine one.
      if (!next && !this.finishing) return;
      this.waiting.delete(seq);
      const good = candidates.filter(
        (c) => c.chain.prevHash === this.prevHash && entryHash(c, seq, c.chain.prevHash) === c.chain.hash,
      );
      if (good.length === 0) {
        const first = candidates[0]!;
        if (entryHash(first, seq, first.chain.prevHash) !== first.chain.hash) {
          this.fail(
            'changed',
            `Entry ${first.id} (#${seq}) was changed: its fields no longer match its hash.`,
            first.id,
            seq,
          );
        } else if (this.last) {
          this.fail(
            'changed',
            `Entry ${this.last.entryId} (#${this.last.seq}) was changed: entry ${first.id} (#${seq}) was chained to another hash.`,
            this.last.entryId,
            this.last.seq,
          );
        } else {
          this.fail(
            'inserted',
            `Entry ${first.id} (#${seq}) does not link to the start of the chain.`,
            first.id,
            seq,
          );
        }
        return;
      }
      const genuine =
        good.length === 1
          ? good[0]!
          : (good.find((c) => next?.some((n) => n.chain.prevHash === c.chain.hash)) ?? good[0]!);
      const intruder = candidates.find((c) => c !== genuine);
      if (intruder) {
        this.fail(
          'inserted',
          `Entry ${intruder.id} was inserted at #${seq}, beside entry ${genuine.id}.`,
          intruder.id,
          seq,
        );
        return;
      }
      this.prevHash = genuine.chain.hash;
      this.last = { seq, entryId: genuine.id, hash: genuine.chain.hash };
      this.checked++;
      this.expected = seq + 1;
    }
  }

  /** After the last entry: places still waiting mean a gap; the head says where the chain ends. */
  finish(head?: ChainHead): ChainVerification {
    this.finishing = true;
    if (!this.problem) {
      // Two entries at the last place: no next entry to tell them apart; the head does.
      const lastPlace = this.expected === undefined ? undefined : this.waiting.get(this.expected);
      if (lastPlace && lastPlace.length > 1 && head) {
        const genuine = lastPlace.find((c) => c.chain.hash === head.hash) ?? lastPlace[0]!;
        this.waiting.set(this.expected!, [genuine]);
        const intruder = lastPlace.find((c) => c !== genuine)!;
        this.fail(
          'inserted',
          `Entry ${intruder.id} was inserted at #${this.expected}, beside entry ${genuine.id}.`,
          intruder.id,
          this.expected,
        );
      }
    }
    if (!this.problem) this.drain();
    if (!this.problem && this.fromId !== undefined && this.expected === undefined) {
      this.fail('removed', `Entry ${this.fromId} (the start) is not in the chain.`, this.fromId);
    }
    if (!this.problem && this.waiting.size > 0) {
      this.fail('removed', this.gap(this.expected!), this.last?.entryId, this.expected);
    }
    if (!this.problem && head) {
      const end = this.last?.seq ?? (this.expected ?? 1) - 1;
      if (head.seq > end) {
        this.fail(
          'removed',
          `${this.gap(end + 1)} The head names #${head.seq} (entry ${head.entryId}).`,
          this.last?.entryId,
          end + 1,
        );
      } else if (head.seq < end) {
        this.fail(
          'inserted',
          `Entry ${this.last!.entryId} (#${end}) lies past the chain's head (#${head.seq}).`,
          this.last!.entryId,
          end,
        );
      } else if (this.last && head.hash !== this.last.hash) {
        this.fail(
          'changed',
          `The head's hash differs from entry ${this.last.entryId} (#${end}).`,
          this.last.entryId,
          end,
        );
      }
    }
    return {
      ok: !this.problem,
      checked: this.checked,
      unchained: this.unchained,
      ...(this.last ? { last: this.last } : {}),
      ...(this.problem ? { problem: this.problem } : {}),
    };
  }

  private gap(seq: number): string {
    return this.last
      ? `Entry #${seq}, after entry ${this.last.entryId} (#${this.last.seq}), was removed.`
      : `Entry #${seq}, the start of the chain, was removed.`;
  }

  private fail(kind: ChainProblemKind, message: string, entryId?: string, seq?: number): void {
    this.problem ??= {
      kind,
      message,
      ...(seq === undefined ? {} : { seq }),
      ...(entryId === undefined ? {} : { entryId }),
    };
  }
}
