import { formatUnits, isKnownAsset, multiply, parseDecimal, scaleOf, toDecimalString } from '@bourse/money';
import {
  ASSET_ACCOUNT_TYPES,
  type AssetAccount,
  type AssetAccountType,
  type AssetData,
  type AssetRow,
  type CurrencyData,
  type TransferBody,
  type TransferData,
} from '@bourse/protocol';
import type { Db } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { expectRefusal, refuse } from '../../http/refusal.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { Book, Ledger } from '../ledger/index.ts';
import type { Market } from '../market/index.ts';
import { knownCurrency, parseAmount } from './amounts.ts';
import { createRecordRegistry, journalSource, type RecordRegistry } from './records.ts';
import * as repo from './repo.ts';

/** USDT minor units (scale 8): every converted value is in these. */
const USDT_SCALE = scaleOf('USDT');

export type Valuation = {
  /** Price of one whole unit in USDT minor units at `priceScale`, or null when none exists. */
  priceUnits: bigint | null;
  priceScale: number;
  price: string | null;
  source: string;
  stale: boolean;
  at: number;
};

/** Deposit networks per currency, supplied by the deposits module for getCurrencyAll. */
export type ChainInfo = (currency: string) => Promise<CurrencyData['chains']>;

export type AssetsDeps = {
  db: Db;
  ledger: Ledger;
  market: Pick<Market, 'ticker'>;
  clock: Clock;
};

export function bookOf(auth: Pick<AuthContext, 'isDemo'>): Book {
  return auth.isDemo ? 'demo' : 'real';
}

export function isAccountType(value: string): value is AssetAccountType {
  return (ASSET_ACCOUNT_TYPES as readonly string[]).includes(value);
}

export function createAssets(deps: AssetsDeps) {
  const { db, ledger, market } = deps;
  const records: RecordRegistry = createRecordRegistry();
  records.register(journalSource);
  let chainInfo: ChainInfo = async () => [];

  /** The market's reference price of `currency` in USDT; never invented, stale said so. */
  function valuation(currency: string, priceSymbol: string | null): Valuation {
    if (currency === 'USDT') {
      return { priceUnits: 1n, priceScale: 0, price: null, source: 'unit', stale: false, at: 0 };
    }
    const symbol = priceSymbol ?? `${currency}/USDT`;
    let ticker: ReturnType<Market['ticker']>;
    try {
      ticker = market.ticker(symbol);
    } catch (error) {
      expectRefusal(error, 'INSTRUMENT_UNKNOWN'); // no such pair: no valuation; anything else is a bug
      return { priceUnits: null, priceScale: 0, price: null, source: 'none', stale: true, at: 0 };
    }
    const parsed = parseDecimal(ticker.mark, { scale: ticker.price_scale });
    if (!parsed.ok) {
      return { priceUnits: null, priceScale: 0, price: null, source: ticker.source, stale: true, at: 0 };
    }
    return {
      priceUnits: parsed.units,
      priceScale: ticker.price_scale,
      price: ticker.mark,
      source: ticker.source,
      stale: ticker.state !== 'live' || ticker.source === 'reference',
      at: ticker.updated_at,
    };
  }

  /** `units` of `currency` in USDT minor units, rounded down (a valuation never overstates). */
  function valueUnits(units: bigint, currency: string, v: Valuation): bigint | null {
    if (v.priceUnits === null) return null;
    return multiply({
      a: units,
      aScale: scaleOf(currency),
      b: v.priceUnits,
      bScale: v.priceScale,
      resultScale: USDT_SCALE,
      rounding: 'floor',
    });
  }

  const usdtText = (units: bigint) =>
    formatUnits(units, { scale: USDT_SCALE, minFractionDigits: 2, maxFractionDigits: 2, rounding: 'floor' });

  return {
    records,

    /** `units` of `currency` in USDT minor units at the recorded reference price, rounded down; null: no price. */
    usdtValue: (currency: string, units: bigint): bigint | null =>
      valueUnits(units, currency, valuation(currency, null)),

    /** The deposits module tells getCurrencyAll which networks each currency has. */
    setChainInfo(info: ChainInfo) {
      chainInfo = info;
    },

    /** `web/getCurrencyAll`: every currency the platform holds, with its scale and deposit networks. */
    async currencies(): Promise<CurrencyData[]> {
      const rows = await repo.listedCurrencies(db);
      return Promise.all(
        rows
          .filter((r) => isKnownAsset(r.currency))
          .map(async (r) => ({
            currency: r.currency,
            name: r.name,
            scale: scaleOf(r.currency),
            price_symbol: r.currency === 'USDT' ? null : (r.price_symbol ?? `${r.currency}/USDT`),
            chains: await chainInfo(r.currency),
          })),
      );
    },

    /**
     * `web/getAsset2`: per account type (spot, contract, options, earn, funding), one row per listed
     * currency and per currency held, with available, frozen and the value in USDT from the market's
     * reference prices (bigint maths, rounded down), and totals per account type and overall.
     */
    async overview(auth: AuthContext, type?: AssetAccountType): Promise<AssetData> {
      const book = bookOf(auth);
      const [listed, balances] = await Promise.all([
        repo.listedCurrencies(db),
        ledger.balances(db, { customerId: auth.customerId, accountType: type }),
      ]);
      const priceSymbols = new Map(listed.map((r) => [r.currency, r.price_symbol]));
      const order = listed.map((r) => r.currency);
      for (const b of balances) if (!order.includes(b.currency)) order.push(b.currency);
      const valuations = new Map<string, Valuation>();
      for (const currency of order)
        valuations.set(currency, valuation(currency, priceSymbols.get(currency) ?? null));

      const accounts: AssetAccount[] = [];
      let grand = 0n;
      let anyStale = false;
      for (const accountType of type ? [type] : ASSET_ACCOUNT_TYPES) {
        let total = 0n;
        let stale = false;
        const rows: AssetRow[] = order.map((currency) => {
          const b = balances.find(
            (x) => x.book === book && x.accountType === accountType && x.currency === currency,
          );
          const available = b?.availableUnits ?? 0n;
          const frozen = b?.frozenUnits ?? 0n;
          const scale = scaleOf(currency);
          const v = valuations.get(currency) as Valuation;
          const value = valueUnits(available + frozen, currency, v);
          if (value !== null) total += value;
          if (available + frozen > 0n && v.stale) stale = true;
          return {
            currency,
            available: toDecimalString(available, scale),
            frozen: toDecimalString(frozen, scale),
            total: toDecimalString(available + frozen, scale),
            value_usdt: value === null ? null : usdtText(value),
            price: v.price,
            price_source: v.source,
            price_stale: v.stale,
            price_at: v.at,
          };
        });
        grand += total;
        anyStale ||= stale;
        accounts.push({ type: accountType, total_usdt: usdtText(total), price_stale: stale, rows });
      }
      return {
        valuation_currency: 'USDT',
        total_usdt: usdtText(grand),
        price_stale: anyStale,
        is_demo: auth.isDemo ? 1 : 0,
        accounts,
      };
    },

    /**
     * Between two of the customer's own account types, atomically (one journal entry). Every bad
     * input is refused with its reason before the ledger is asked; the ledger refuses an overdraw.
     */
    async transfer(auth: AuthContext, body: TransferBody): Promise<TransferData> {
      const currency = knownCurrency(body.currency.trim());
      if (!isAccountType(body.from)) refuse('BAD_INPUT', { field: 'from' });
      if (!isAccountType(body.to)) refuse('BAD_INPUT', { field: 'to' });
      if (body.from === body.to) refuse('TRANSFER_SAME_ACCOUNT');
      const amountUnits = parseAmount('amount', body.amount, currency);
      const book = bookOf(auth);
      const id = newId('trf', deps.clock.now().getTime());
      const entry = await ledger.transfer(db, {
        book,
        customerId: auth.customerId,
        currency,
        fromType: body.from,
        toType: body.to,
        amountUnits,
        reason: 'transfer',
        reference: { type: 'transfer', id },
        idempotencyKey: `transfer:${id}`,
      });
      const [from, to] = await Promise.all([
        ledger.balance(db, { book, customerId: auth.customerId, accountType: body.from, currency }),
        ledger.balance(db, { book, customerId: auth.customerId, accountType: body.to, currency }),
      ]);
      const scale = scaleOf(currency);
      return {
        id,
        entry_id: entry.id,
        currency,
        amount: toDecimalString(amountUnits, scale),
        from: body.from,
        to: body.to,
        from_available: toDecimalString(from.availableUnits, scale),
        to_available: toDecimalString(to.availableUnits, scale),
      };
    },
  };
}

export type Assets = ReturnType<typeof createAssets>;
