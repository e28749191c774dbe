import { type Static, Type } from 'typebox';
import { CommonFields } from './access.ts';

/**
 * API keys for bots (docs/bots.md): a customer creates keys (label, `read` or `trade`, an optional
 * IP allow-list, a lifetime in days), sees the secret once, lists and revokes them. Signed calls
 * go to the Binance-style API under `/api/v3`.
 */
export const APIKEY_LIMITS = {
  /** Active (not revoked, not expired) keys per customer. */
  perCustomerMax: 20,
  labelMin: 1,
  labelMax: 40,
  /** Addresses or CIDR ranges in one key's allow-list. */
  ipsMax: 30,
  /** The allow-list as typed: entries separated by commas, spaces or new lines. */
  ipsTextMax: 2000,
  expiryDaysMin: 1,
  expiryDaysMax: 365,
  expiryDaysDefault: 90,
  reasonMin: 3,
  reasonMax: 500,
} as const;

export const APIKEY_PERMISSIONS = ['read', 'trade'] as const;
export type ApiKeyPermission = (typeof APIKEY_PERMISSIONS)[number];

const permission = Type.Union(APIKEY_PERMISSIONS.map((p) => Type.Literal(p)));
const id = Type.String({ minLength: 1, maxLength: 40 });

/** `POST web/createApiKey`: needs the trade password (and the Google code when enabled). */
export const CreateApiKeyBody = Type.Object(
  {
    ...CommonFields,
    label: Type.String({ maxLength: 200 }),
    /** `read`: market data, balances and orders; `trade`: also place and cancel spot orders. Never withdraw. */
    permission,
    /** IPv4 / IPv6 addresses or CIDR ranges, separated by commas, spaces or new lines; empty: any address. */
    ips: Type.Optional(Type.String({ maxLength: APIKEY_LIMITS.ipsTextMax })),
    /** Lifetime in whole days (default 90). */
    expires_days: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$' })),
    trade_password: Type.String({ minLength: 1, maxLength: 32 }),
    google_code: Type.Optional(Type.String({ maxLength: 10 })),
  },
  { additionalProperties: false },
);
export type CreateApiKeyBody = Static<typeof CreateApiKeyBody>;

/** `GET web/getApiKeys`. */
export const ApiKeysQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });
export type ApiKeysQuery = Static<typeof ApiKeysQuery>;

/** `POST web/revokeApiKey`. */
export const RevokeApiKeyBody = Type.Object({ ...CommonFields, id }, { additionalProperties: false });
export type RevokeApiKeyBody = Static<typeof RevokeApiKeyBody>;

/** `GET admin/customerApiKeys`. */
export const AdminApiKeysQuery = Type.Object(
  { ...CommonFields, customer_id: id },
  { additionalProperties: false },
);
export type AdminApiKeysQuery = Static<typeof AdminApiKeysQuery>;

/** `POST admin/revokeApiKey`: with the reason the customer is told. */
export const AdminRevokeApiKeyBody = Type.Object(
  {
    ...CommonFields,
    id,
    reason: Type.String({ maxLength: APIKEY_LIMITS.reasonMax }),
  },
  { additionalProperties: false },
);
export type AdminRevokeApiKeyBody = Static<typeof AdminRevokeApiKeyBody>;

export type ApiKeyState = 'active' | 'expired' | 'revoked';

/** A key as listed: never its secret. */
export type ApiKeyData = {
  id: string;
  label: string;
  /** The public key, sent in the `X-MBX-APIKEY` header. */
  api_key: string;
  permission: ApiKeyPermission;
  /** The allow-list, normalised; empty: any address. */
  ips: string[];
  state: ApiKeyState;
  created_at: number;
  expires_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
  /** `customer` or `staff`. */
  revoked_by: 'customer' | 'staff' | null;
  revoke_reason: string | null;
};

/** The answer to `createApiKey`: the only time the secret is ever shown. */
export type ApiKeyCreatedData = ApiKeyData & { secret: string };

export type ApiKeysData = { items: ApiKeyData[]; max: number };
