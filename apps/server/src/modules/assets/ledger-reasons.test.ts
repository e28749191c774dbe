import fs from 'node:fs';
import path from 'node:path';
import { catalogs, lookup } from '@bourse/i18n';
import { LANGS, LEDGER_REASONS, ledgerReasonKey } from '@bourse/protocol';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../..');

/** Every non-test TypeScript file of the server. */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = path.join(dir, d.name);
    if (d.isDirectory()) return sources(full);
    return d.name.endsWith('.ts') && !d.name.endsWith('.test.ts') ? [full] : [];
  });
}

/**
 * `reason: '…'` literals that are not ledger reasons (session revocation, order cancel causes,
 * contract close causes that become `contract.<cause>`), declared here so that any new literal is
 * either a labelled ledger reason or consciously listed.
 */
const NOT_LEDGER = new Set([
  'user',
  'operator',
  'logout',
  'password_changed',
  'liquidation',
  'delivery',
  'market_closed',
  // withdrawals: the payout webhook's failure code (a withdrawal's fail_reason, not a ledger entry)
  'provider_error',
  // c2c: why the job moved an order (its timeline's reason, not a ledger entry)
  'pay_by',
  'confirm_by',
  'other_side_silent',
  'demo_desk',
]);

/** Reasons built from a template, and every value each can take. */
const TEMPLATES: Record<string, readonly string[]> = {
  'adjustment.${row.direction}': ['adjustment.credit', 'adjustment.debit'],
  "contract.${reason === 'user' || reason === 'close_all' ? 'close' : reason}": [
    'contract.close',
    'contract.take_profit',
    'contract.stop_loss',
    'contract.liquidation',
    'contract.delivery',
  ],
};

function usedReasons(): { literals: Set<string>; templates: Set<string> } {
  const literals = new Set<string>();
  const templates = new Set<string>();
  for (const file of sources(SRC)) {
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\breason: '([a-z][a-z0-9_.]*)'/g)) literals.add(m[1] as string);
    for (const m of text.matchAll(/\breason: `([^`]*)`/g)) templates.add(m[1] as string);
    // The ledger's fallback reasons: meta(input, 'credit'), input.reason ?? 'reversal'.
    for (const m of text.matchAll(/meta\(input, '([a-z.]+)'\)|input\.reason \?\? '([a-z.]+)'/g)) {
      literals.add((m[1] ?? m[2]) as string);
    }
  }
  return { literals, templates };
}

describe('ledger reasons', () => {
  const registry = new Set<string>(LEDGER_REASONS);
  const { literals, templates } = usedReasons();

  it('finds the reasons the server posts (the scan works)', () => {
    for (const r of [
      'spot.freeze',
      'spot.trade',
      'deposit.crypto',
      'withdrawal.request',
      'transfer',
      'credit',
    ]) {
      expect(literals.has(r), r).toBe(true);
    }
  });

  it('every reason literal in the server is registered (or declared not a ledger reason)', () => {
    const unknown = [...literals].filter((r) => !registry.has(r) && !NOT_LEDGER.has(r));
    expect(unknown, 'add these to LEDGER_REASONS (packages/protocol) with labels').toEqual([]);
  });

  it('every reason template in the server is expanded here and registered', () => {
    for (const t of templates) {
      const values = TEMPLATES[t];
      expect(values, `reason template \`${t}\`: list its values in TEMPLATES`).toBeDefined();
      for (const v of values ?? []) expect(registry.has(v), v).toBe(true);
    }
  });

  for (const lang of LANGS) {
    it(`every ledger reason has a ${lang} customer label`, () => {
      const missing = LEDGER_REASONS.filter((r) => !lookup(catalogs[lang].assets, ledgerReasonKey(r)));
      expect(missing, `${lang} lacks labels`).toEqual([]);
    });
  }

  it('labels read as words, not codes', () => {
    for (const lang of LANGS) {
      for (const r of LEDGER_REASONS) {
        expect(lookup(catalogs[lang].assets, ledgerReasonKey(r))).not.toMatch(/[a-z]+[._][a-z]/);
      }
    }
  });
});
