import { scaleOf, toDecimalString } from '@bourse/money';
import type { RecordItem } from '@bourse/protocol';
import type { RecordSource } from '../assets/index.ts';
import { cryptoStatus, DEPOSIT_ACCOUNT_TYPE } from './context.ts';
import { type CryptoRow, rechargeRecords } from './repo.ts';

/**
 * The customer's deposits in the asset records (`getRecords kind=recharge`): crypto and bank in one
 * list; status 0 failed/rejected, 1 pending/held, 2 credited/confirmed. Real book only.
 */
export const rechargeSource: RecordSource = {
  kinds: ['recharge'],
  async list(q, input) {
    if (input.book !== 'real') return { total: 0, types: ['crypto', 'bank'], items: [] };
    const f = input.filters;
    const statuses =
      f.status === null
        ? null
        : f.status === 2
          ? ['credited']
          : f.status === 0
            ? ['failed']
            : ['pending', 'held'];
    const { total, rows } = await rechargeRecords(q, {
      customerId: input.customerId,
      type: f.type,
      currency: f.currency,
      fromMs: f.fromMs,
      toMs: f.toMs,
      statuses,
      offset: input.offset,
      limit: input.limit,
    });
    const items = rows.map(
      (r): RecordItem => ({
        id: r.id,
        time: r.created_at.getTime(),
        type: r.type,
        currency: r.currency,
        amount: toDecimalString(BigInt(r.amount_units), scaleOf(r.currency)),
        account_type: DEPOSIT_ACCOUNT_TYPE,
        status: cryptoStatus(r.status as CryptoRow['status']),
        held: r.status === 'held',
        detail: r.detail,
        ref: { kind: 'deposit', id: r.id },
        ...(r.failure ? { failure: r.failure } : {}),
      }),
    );
    return { total, types: ['crypto', 'bank'], items };
  },
};
