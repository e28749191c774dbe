import { isKnownAsset } from '@bourse/money';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import type { Clock } from '../../lib/clock.ts';
import { open, seal } from '../../lib/crypto.ts';
import { newId } from '../../lib/ids.ts';
import { CURRENCY_CHAINS, isChain, normalizeAddress } from './chains.ts';
import * as repo from './repo.ts';

/** Address book and bound bank cards / wallets. */
export const ADDRESSES_MAX = 50;
export const PAYEES_MAX = 10;
const MEMO = /^[A-Za-z0-9 _.:-]{0,64}$/;

export type BankFields = {
  bank_name: string;
  bank_account: string;
  card_number: string;
  swift_code: string;
  routing_number: string;
  bank_address: string;
  bank_phone: string;
  payee_name: string;
  payee_phone: string;
  payee_address: string;
};
export const WALLET_TYPES = ['alipay', 'wechat'] as const;
export type WalletFields = {
  wallet_type: (typeof WALLET_TYPES)[number];
  wallet_account: string;
  wallet_nickname: string;
  payee_name: string;
};

/** Printable text without control characters, trimmed, within a length. */
function text(
  field: string,
  value: string | undefined,
  options: { max: number; required?: boolean },
): string {
  const v = (value ?? '').trim();
  if (options.required && v === '') refuse('FIELD_REQUIRED', { field });
  if (v.length > options.max) refuse('FIELD_TOO_LONG', { field, max: options.max });
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(v)) refuse('BAD_INPUT', { field });
  return v;
}

/** ABA routing numbers carry a weighted check digit (3-7-1). */
export function isRoutingNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const d = [...value].map((c) => c.charCodeAt(0) - 48);
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!);
  return sum % 10 === 0;
}

const PHONE = /^\+?[0-9 -]{5,20}$/;

export function checkBank(input: Partial<BankFields>): BankFields {
  const card = text('card_number', input.card_number, { max: 40, required: true }).replace(/[\s-]/g, '');
  if (!/^[A-Za-z0-9]{8,34}$/.test(card)) refuse('BAD_INPUT', { field: 'card_number' });
  const swift = text('swift_code', input.swift_code, { max: 11 }).toUpperCase();
  if (swift !== '' && !/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(swift))
    refuse('BAD_INPUT', { field: 'swift_code' });
  const routing = text('routing_number', input.routing_number, { max: 9 });
  if (routing !== '' && !isRoutingNumber(routing)) refuse('BAD_INPUT', { field: 'routing_number' });
  const bankPhone = text('bank_phone', input.bank_phone, { max: 20 });
  if (bankPhone !== '' && !PHONE.test(bankPhone)) refuse('BAD_INPUT', { field: 'bank_phone' });
  const payeePhone = text('payee_phone', input.payee_phone, { max: 20 });
  if (payeePhone !== '' && !PHONE.test(payeePhone)) refuse('BAD_INPUT', { field: 'payee_phone' });
  return {
    bank_name: text('bank_name', input.bank_name, { max: 64, required: true }),
    bank_account: text('bank_account', input.bank_account, { max: 64 }),
    card_number: card.toUpperCase(),
    swift_code: swift,
    routing_number: routing,
    bank_address: text('bank_address', input.bank_address, { max: 128 }),
    bank_phone: bankPhone,
    payee_name: text('payee_name', input.payee_name, { max: 64, required: true }),
    payee_phone: payeePhone,
    payee_address: text('payee_address', input.payee_address, { max: 128 }),
  };
}

export function checkWallet(input: Partial<Record<keyof WalletFields, string>>): WalletFields {
  const type = input.wallet_type ?? '';
  if (!(WALLET_TYPES as readonly string[]).includes(type)) refuse('BAD_INPUT', { field: 'wallet_type' });
  return {
    wallet_type: type as WalletFields['wallet_type'],
    wallet_account: text('wallet_account', input.wallet_account, { max: 64, required: true }),
    wallet_nickname: text('wallet_nickname', input.wallet_nickname, { max: 64 }),
    payee_name: text('payee_name', input.payee_name, { max: 64, required: true }),
  };
}

/** Last 4 characters, the rest hidden. */
export function maskTail(value: string): string {
  return value.length <= 4 ? '****' : `**** ${value.slice(-4)}`;
}

/** First and last characters of a wallet account, the middle hidden. */
export function maskMiddle(value: string): string {
  if (value.length <= 4) return '****';
  return `${value.slice(0, 2)}****${value.slice(-2)}`;
}

/** What an answer may show of a bank card: never the number, SWIFT or routing in full. */
export function publicBank(id: string, f: BankFields, createdAt: Date) {
  return {
    id,
    bank_name: f.bank_name,
    bank_account: f.bank_account,
    card_number: maskTail(f.card_number),
    swift_code: f.swift_code ? maskTail(f.swift_code) : '',
    routing_number: f.routing_number ? maskTail(f.routing_number) : '',
    payee_name: f.payee_name,
    label: `${f.bank_name} ${maskTail(f.card_number)}`,
    created_at: createdAt.getTime(),
  };
}

export function publicWallet(id: string, f: WalletFields, createdAt: Date) {
  return {
    id,
    wallet_type: f.wallet_type,
    wallet_account: maskMiddle(f.wallet_account),
    wallet_nickname: f.wallet_nickname,
    payee_name: f.payee_name,
    created_at: createdAt.getTime(),
  };
}

export function createBook(deps: { db: Db; clock: Clock; secret: string }) {
  const { db, clock } = deps;
  const payeeKey = `withdrawals-payee|${deps.secret}`;
  const sealFields = (fields: object) => seal(payeeKey, JSON.stringify(fields));
  const openFields = <T>(sealed: string) => JSON.parse(open(payeeKey, sealed)) as T;

  function publicAddress(row: repo.AddressRow) {
    return {
      id: row.id,
      currency: row.currency,
      chain: row.chain,
      address: row.address,
      remark: row.remark,
      memo: row.memo,
      created_at: row.created_at.getTime(),
    };
  }

  return {
    openBank: (sealed: string) => openFields<BankFields>(sealed),
    sealFields,

    async listAddresses(auth: AuthContext, currency?: string) {
      const rows = await repo.listAddresses(db, auth.customerId, currency);
      return { list: rows.map(publicAddress), chains: CURRENCY_CHAINS, max: ADDRESSES_MAX };
    },

    async addAddress(
      auth: AuthContext,
      input: { currency: string; chain: string; address: string; remark?: string; memo?: string },
    ) {
      if (auth.isDemo) refuse('REAL_ACCOUNT_REQUIRED');
      if (!isKnownAsset(input.currency)) refuse('CURRENCY_UNKNOWN', { currency: input.currency });
      const chains = CURRENCY_CHAINS[input.currency] ?? [];
      if (!isChain(input.chain) || !chains.includes(input.chain)) {
        refuse('ADDRESS_CHAIN_UNSUPPORTED', { currency: input.currency, chain: input.chain });
      }
      const address = normalizeAddress(input.chain, input.address);
      if (!address) refuse('ADDRESS_INVALID', { chain: input.chain });
      const remark = text('remark', input.remark, { max: 64 });
      const memo = (input.memo ?? '').trim();
      if (!MEMO.test(memo)) refuse('BAD_INPUT', { field: 'memo' });
      if ((await repo.countAddresses(db, auth.customerId)) >= ADDRESSES_MAX) {
        refuse('ADDRESS_BOOK_FULL', { max: ADDRESSES_MAX });
      }
      const row: repo.AddressRow = {
        id: newId('wad', clock.now().getTime()),
        customer_id: auth.customerId,
        currency: input.currency,
        chain: input.chain,
        address,
        remark,
        memo,
        created_at: clock.now(),
      };
      try {
        await repo.insertAddress(db, row);
      } catch (error) {
        if (isUniqueViolation(error)) refuse('ADDRESS_EXISTS');
        throw error;
      }
      return publicAddress(row);
    },

    async deleteAddress(auth: AuthContext, id: string) {
      if (!(await repo.deleteAddress(db, auth.customerId, id))) refuse('NOT_FOUND');
      return null;
    },

    async listBanks(auth: AuthContext) {
      const rows = await repo.listPayees(db, auth.customerId, 'bank');
      return {
        list: rows.map((r) => publicBank(r.id, openFields<BankFields>(r.sealed), r.created_at)),
        max: PAYEES_MAX,
      };
    },

    async addBank(auth: AuthContext, input: Partial<BankFields>) {
      if (auth.isDemo) refuse('REAL_ACCOUNT_REQUIRED');
      const fields = checkBank(input);
      const existing = await repo.listPayees(db, auth.customerId, 'bank');
      if (existing.length >= PAYEES_MAX) refuse('PAYEE_LIMIT', { max: PAYEES_MAX });
      const now = clock.now();
      const id = newId('wpy', now.getTime());
      await repo.insertPayee(db, {
        id,
        customer_id: auth.customerId,
        kind: 'bank',
        sealed: sealFields(fields),
        created_at: now,
      });
      return publicBank(id, fields, now);
    },

    async listWallets(auth: AuthContext) {
      const rows = await repo.listPayees(db, auth.customerId, 'wallet');
      return {
        list: rows.map((r) => publicWallet(r.id, openFields<WalletFields>(r.sealed), r.created_at)),
        max: PAYEES_MAX,
      };
    },

    async addWallet(auth: AuthContext, input: Partial<Record<keyof WalletFields, string>>) {
      if (auth.isDemo) refuse('REAL_ACCOUNT_REQUIRED');
      const fields = checkWallet(input);
      const existing = await repo.listPayees(db, auth.customerId, 'wallet');
      if (existing.length >= PAYEES_MAX) refuse('PAYEE_LIMIT', { max: PAYEES_MAX });
      const now = clock.now();
      const id = newId('wpy', now.getTime());
      await repo.insertPayee(db, {
        id,
        customer_id: auth.customerId,
        kind: 'wallet',
        sealed: sealFields(fields),
        created_at: now,
      });
      return publicWallet(id, fields, now);
    },

    async deletePayee(auth: AuthContext, id: string) {
      if (!(await repo.deletePayee(db, auth.customerId, id))) refuse('NOT_FOUND');
      return null;
    },
  };
}

export type Book = ReturnType<typeof createBook>;
