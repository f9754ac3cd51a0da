/** Canonical JSON (RFC 8785) and the chain verifier on entries made here, in any time order. */
import { describe, expect, it } from 'vitest';
import type { AuditEntry, ChainHead } from '../../shared/domain/audit.ts';
import { canonicalJson } from '../../shared/domain/audit-chain/canonical-json.ts';
import { entryHash, genesisHash, headOf, linkAfter } from '../../shared/domain/audit-chain/link.ts';
import { ChainVerifier } from '../../shared/domain/audit-chain/verify.ts';

describe('canonicalJson', () => {
  it('sorts keys by UTF-16 code units and writes numbers and strings as RFC 8785 does', () => {
    // RFC 8785 section 3.2.3's sorting example: the values in the order the keys sort.
    const sorting = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    const text = canonicalJson(sorting);
    const order = ['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33'];
    const positions = order.map((key) => text.indexOf(JSON.stringify(key)));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect(canonicalJson([1e21, 1e-7, -0, 0.000001, 333333333.3333333, 9007199254740992, 1.5e300])).toBe(
      '[1e+21,1e-7,0,0.000001,333333333.3333333,9007199254740992,1.5e+300]',
    );
    expect(canonicalJson({ b: [true, null, 'x\u2028"'], a: { d: undefined, c: 1 } })).toBe(
      '{"a":{"c":1},"b":[true,null,"x\u2028\\""]}',
    );
  });

  it('refuses what JSON cannot hold exactly', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow(/NaN/);
    expect(() => canonicalJson({ at: new Date() })).toThrow(/object/);
    expect(() => canonicalJson(10n)).toThrow(/bigint/);
  });

  it('hashes a lone surrogate from a request as U+FFFD instead of failing the append', () => {
    expect(canonicalJson({ note: 'a\ud800b', ['\udc00']: 1 })).toBe('{"note":"a\ufffdb","\ufffd":1}');
  });
});

const entry = (n: number, minute = n): AuditEntry => ({
  id: `aud_${n}`,
  projectId: 'p',
  at: new Date(Date.UTC(2026, 10, 28, 0, minute)).toISOString(),
  actor: { kind: 'user', id: 'u', email: 'u@example.com' },
  event: 'action.update',
  target: { type: 'action', id: `a${n}` },
  outcome: 'succeeded',
});

/** Five linked entries and their head. */
function chainOf(count = 5) {
  const linked: AuditEntry[] = [];
  let head: ChainHead | undefined;
  for (let n = 1; n <= count; n++) {
    const next = linkAfter(head, entry(n));
    linked.push(next);
    head = headOf(next);
  }
  return { linked, head: head! };
}

function verify(entries: AuditEntry[], head?: ChainHead, from?: string) {
  const verifier = new ChainVerifier(from);
  for (const e of entries) if (!verifier.add(e)) break;
  return verifier.finish(head);
}

describe('chain links', () => {
  it('start at the genesis hash and cover every field', () => {
    const { linked } = chainOf(2);
    expect(linked[0]!.chain).toMatchObject({ seq: 1, prevHash: genesisHash });
    expect(linked[1]!.chain!.prevHash).toBe(linked[0]!.chain!.hash);
    const base = entry(1);
    const hash = entryHash(base, 1, genesisHash);
    for (const changed of [
      { ...base, at: '2026-11-28T00:01:00.001Z' },
      { ...base, actor: { ...base.actor, email: 'x@example.com' } },
      { ...base, details: {} },
      { ...base, projectId: 'q' },
    ]) {
      expect(entryHash(changed, 1, genesisHash)).not.toBe(hash);
    }
    expect(entryHash(base, 2, genesisHash)).not.toBe(hash);
  });
});

describe('ChainVerifier', () => {
  it('accepts a chain read in any time order (raced appends, back-dated entries)', () => {
    const { linked, head } = chainOf();
    expect(verify([linked[3]!, linked[0]!, linked[4]!, linked[2]!, linked[1]!], head)).toMatchObject({
      ok: true,
      checked: 5,
      last: { seq: 5, entryId: 'aud_5' },
    });
  });

  it('counts entries from before the chain and checks from an entry with --from', () => {
    const { linked, head } = chainOf();
    const legacy = { ...entry(0), id: 'aud_old' };
    expect(verify([legacy, ...linked], head)).toMatchObject({ ok: true, unchained: 1, checked: 5 });
    expect(verify(linked.slice(2), head, 'aud_3')).toMatchObject({ ok: true, checked: 3 });
  });

  it('names a changed, a removed and an inserted entry', () => {
    const { linked, head } = chainOf();
    const edited = linked.map((e) => (e.id === 'aud_2' ? { ...e, outcome: 'failed' as const } : e));
    expect(verify(edited, head).problem).toMatchObject({ kind: 'changed', entryId: 'aud_2', seq: 2 });
    expect(
      verify(
        linked.filter((e) => e.id !== 'aud_3'),
        head,
      ).problem,
    ).toMatchObject({
      kind: 'removed',
      seq: 3,
      entryId: 'aud_2',
    });
    expect(verify(linked.slice(1), head).problem).toMatchObject({ kind: 'removed', seq: 1 });
    const extra = linkAfter(
      headOf(linked[4]! as AuditEntry & { chain: NonNullable<AuditEntry['chain']> }),
      entry(6),
    );
    expect(verify([...linked, extra], head).problem).toMatchObject({ kind: 'inserted', entryId: 'aud_6' });
    expect(verify([...linked, { ...entry(7), id: 'aud_x' }], head).problem).toMatchObject({
      kind: 'inserted',
      entryId: 'aud_x',
    });
  });

  it('tells the genuine entry from a forged one at the same place by the next link', () => {
    const { linked, head } = chainOf();
    const forged = linkAfter({ seq: 2, hash: linked[1]!.chain!.hash }, { ...entry(9), id: 'aud_forged' });
    // Forged at place 3, read before the genuine one.
    expect(verify([linked[0]!, linked[1]!, forged, ...linked.slice(2)], head).problem).toMatchObject({
      kind: 'inserted',
      entryId: 'aud_forged',
      seq: 3,
    });
  });
});
