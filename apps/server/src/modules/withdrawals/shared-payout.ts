import type { Db, Tx } from '../../db/database.ts';
import type { Book } from './book.ts';
import { maskTail } from './book.ts';

/**
 * Whether two customers share payout details (modules/referral's linked-accounts check): the same
 * withdrawal address on the same chain in both address books, or the same bank card number or
 * e-wallet account among both customers' bound payees (opened here, compared, never returned).
 * A masked description of the first match for the flag, or null.
 */
type Q = Db | Tx;

export async function sharedPayoutDetails(
  q: Q,
  book: Pick<Book, 'openBank'>,
  input: { a: string; b: string },
): Promise<string | null> {
  const { a, b } = input;
  const address = await q
    .selectFrom('withdrawals_address as x')
    .innerJoin('withdrawals_address as y', (join) =>
      join.onRef('x.chain', '=', 'y.chain').onRef('x.address', '=', 'y.address'),
    )
    .select(['x.chain', 'x.address'])
    .where('x.customer_id', '=', a)
    .where('y.customer_id', '=', b)
    .limit(1)
    .executeTakeFirst();
  if (address) return `address ${address.chain} ${maskTail(address.address)}`;
  const payees = await q
    .selectFrom('withdrawals_payee')
    .select(['customer_id', 'kind', 'sealed'])
    .where('customer_id', 'in', [a, b])
    .execute();
  const keysOf = (customerId: string) => {
    const keys = new Map<string, string>();
    for (const p of payees.filter((r) => r.customer_id === customerId)) {
      const f = book.openBank(p.sealed) as unknown as Record<string, string>;
      if (p.kind === 'bank' && f.card_number)
        keys.set(`bank:${f.card_number.toUpperCase()}`, `bank card ${maskTail(f.card_number)}`);
      if (p.kind === 'wallet' && f.wallet_account)
        keys.set(
          `wallet:${f.wallet_type}:${f.wallet_account.trim().toLowerCase()}`,
          `${f.wallet_type} ${maskTail(f.wallet_account)}`,
        );
    }
    return keys;
  };
  const mine = keysOf(a);
  for (const [key, label] of keysOf(b)) if (mine.has(key)) return label;
  return null;
}
