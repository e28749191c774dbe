import {
  C2C_LIMITS,
  type C2cAccountData,
  type C2cAccountSaveBody,
  type C2cPayToData,
} from '@bourse/protocol';
import { sameName } from '@bourse/risk';
import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import { inTransaction } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import { newId } from '../../lib/ids.ts';
import type { C2cDeps } from './context.ts';
import type { AccountRow } from './repo.ts';
import * as repo from './repo.ts';

/**
 * Collection accounts (README.md, "Collection accounts"): where a customer (or a merchant) is paid.
 * The name must be the verified real name (third-party accounts get banks' accounts frozen); a bank
 * account has a bank name and an account number or an IBAN (checked by `ibantools`, with an
 * optional SWIFT/BIC, also checked); Alipay and WeChat an id.
 */

const clean = (v: string | undefined) => {
  const t = v?.trim() ?? '';
  return t === '' ? null : t;
};

export async function requireVerifiedName(deps: C2cDeps, customerId: string): Promise<string> {
  const name = await deps.verifiedName(customerId);
  if (!name) refuse('C2C_VERIFIED_NAME_REQUIRED');
  return name;
}

function fieldsOf(body: C2cAccountSaveBody) {
  const f = {
    method: body.method,
    name: body.name.trim(),
    bank_name: null as string | null,
    account_no: null as string | null,
    iban: null as string | null,
    swift: null as string | null,
    bank_address: null as string | null,
    wallet_id: null as string | null,
  };
  if (body.method !== 'bank') {
    f.wallet_id = clean(body.wallet_id);
    if (f.wallet_id === null) refuse('C2C_ACCOUNT_INVALID', { field: 'wallet_id' });
    return f;
  }
  f.bank_name = clean(body.bank_name);
  if (f.bank_name === null) refuse('C2C_ACCOUNT_INVALID', { field: 'bank_name' });
  f.bank_address = clean(body.bank_address);
  const iban = clean(body.iban);
  if (iban !== null) {
    const e = electronicFormatIBAN(iban);
    if (!e || !isValidIBAN(e)) refuse('C2C_IBAN_INVALID');
    f.iban = e;
  }
  const swift = clean(body.swift)?.toUpperCase() ?? null;
  if (swift !== null && !isValidBIC(swift)) refuse('C2C_SWIFT_INVALID');
  f.swift = swift;
  const no = clean(body.account_no)?.replace(/[\s-]/g, '') ?? null;
  if (no !== null && !/^[0-9A-Za-z]{4,34}$/.test(no)) refuse('C2C_ACCOUNT_INVALID', { field: 'account_no' });
  f.account_no = no;
  if (f.account_no === null && f.iban === null) refuse('C2C_ACCOUNT_INVALID', { field: 'account_no' });
  return f;
}

export async function saveAccount(deps: C2cDeps, auth: AuthContext, body: C2cAccountSaveBody) {
  const fields = fieldsOf(body);
  const verified = await requireVerifiedName(deps, auth.customerId);
  if (!sameName(fields.name, verified)) refuse('C2C_ACCOUNT_NAME_MISMATCH');
  return inTransaction(deps.db, async (tx) => {
    const mine = await repo.accountsOf(tx, auth.customerId);
    if (body.account_id) {
      const old = mine.find((a) => a.id === body.account_id);
      if (!old) refuse('NOT_FOUND');
      await repo.updateAccount(tx, old.id, fields);
      return { ...old, ...fields };
    }
    if (mine.length >= C2C_LIMITS.accountsPerCustomerMax)
      refuse('C2C_ACCOUNTS_TOO_MANY', { max: C2C_LIMITS.accountsPerCustomerMax });
    const now = deps.clock.now();
    const row: AccountRow = {
      id: newId('cac', now.getTime()),
      customer_id: auth.customerId,
      ...fields,
      created_at: now,
      deleted_at: null,
    };
    await repo.insertAccount(tx, row);
    return row;
  });
}

/** Deleting hides the account from new orders; orders already matched keep their copy of it. */
export async function deleteAccount(deps: C2cDeps, auth: AuthContext, accountId: string) {
  return inTransaction(deps.db, async (tx) => {
    const mine = await repo.accountsOf(tx, auth.customerId);
    if (!mine.some((a) => a.id === accountId)) refuse('NOT_FOUND');
    await repo.updateAccount(tx, accountId, { deleted_at: deps.clock.now() });
    return { account_id: accountId };
  });
}

export const accountData = (a: AccountRow): C2cAccountData => ({
  account_id: a.id,
  method: a.method,
  name: a.name,
  bank_name: a.bank_name,
  account_no: a.account_no,
  iban: a.iban,
  swift: a.swift,
  bank_address: a.bank_address,
  wallet_id: a.wallet_id,
  created_at: a.created_at.getTime(),
});

/** The copy of a collection account an order keeps (shown to the payer once the escrow is held). */
export const payToOf = (a: AccountRow): C2cPayToData => ({
  method: a.method,
  name: a.name,
  bank_name: a.bank_name,
  account_no: a.account_no,
  iban: a.iban,
  swift: a.swift,
  bank_address: a.bank_address,
  wallet_id: a.wallet_id,
});
