import {
  type DocumentSlot,
  type JurisdictionProfileId,
  normaliseIdNumber,
  type VerificationTier,
} from '@bourse/protocol';
import type { Logger } from 'pino';
import type { Db, Tx } from '../../db/database.ts';
import type { AuditLog } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import { hmac } from '../../lib/crypto.ts';
import type { Contact } from '../accounts/index.ts';
import type { Notifier } from '../notify/index.ts';
import type { DocumentCipher, Uploads } from '../uploads/index.ts';

/** What the parts of the verification service share: their dependencies and small pure helpers. */

export type CustomerIdentity = {
  id: string;
  uid: string;
  /** ISO 3166-1 alpha-2, fixed at registration ('' when none was recorded: chosen at primary verification). */
  country: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  is_demo: boolean;
};

export type VerificationDeps = {
  db: Db;
  clock: Clock;
  log: Logger;
  /** The server secret: the HMAC of ID numbers (matching without the number in the clear). */
  secret: string;
  /** The document key (uploads): ID numbers are sealed with it. */
  cipher: DocumentCipher;
  uploads: Pick<Uploads, 'attach' | 'facts' | 'sameImageOwners' | 'staffLinks'>;
  /** The active jurisdiction profile (modules/jurisdiction). */
  activeProfile: () => Promise<JurisdictionProfileId>;
  /** Customers by id (accounts.customerIdentities). */
  customers: (ids: readonly string[]) => Promise<Map<string, CustomerIdentity>>;
  /**
   * Records a nationality for a customer who has none (accounts.fixCountry): only an empty one is
   * set; answers the country now on record. Runs in the submission's transaction.
   */
  fixCountry: (tx: Tx, customerId: string, country: string) => Promise<string>;
  /** Where and in which language to tell a customer about a decision (accounts.contactOf). */
  contacts: { contactOf(customerId: string): Promise<Contact | null> };
  notifier: Notifier | null;
  audit: AuditLog;
  /** Display names of staff ids (staff.names). */
  staffNames: (ids: readonly string[]) => Promise<Record<string, string>>;
};

export const TIER_ORDER: readonly VerificationTier[] = ['primary', 'advanced', 'address'];

/** The request field that carries each document slot's file id (reasons name it). */
export const SLOT_FIELD: Readonly<Record<DocumentSlot, string>> = {
  id_front: 'front_file_id',
  id_back: 'back_file_id',
  id_handheld: 'handheld_file_id',
  asset_house: 'asset_house_file_id',
  asset_bank: 'asset_bank_file_id',
  asset_stock: 'asset_stock_file_id',
  utility_bill: 'utility_bill_file_id',
};

/** The HMAC matched across customers: one ID number (of one type) belongs to one customer. */
export function idHash(secret: string, idType: string, idNumber: string): string {
  return hmac(secret, `kyc-id|${idType}|${normaliseIdNumber(idNumber)}`);
}

/** `G1******89`: the first and last two characters of a normalised number (all masked when 4 or fewer). */
export function maskIdNumber(normalised: string): string {
  if (normalised.length <= 4) return '*'.repeat(normalised.length);
  return `${normalised.slice(0, 2)}${'*'.repeat(normalised.length - 4)}${normalised.slice(-2)}`;
}

/** Names compared for the name_changed flag: case, spacing and width folded. */
export function foldName(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

const DAY_MS = 86_400_000;
export const daysAfter = (at: Date, days: number) => new Date(at.getTime() + days * DAY_MS);
