import { type Static, Type } from 'typebox';

/** Limits of the access calls, shared by the server's checks and the app's forms. */
export const ACCESS_LIMITS = {
  /** The spec gives both 6–12 and 6–24; we take 6–24 (docs/decisions.md). */
  passwordMin: 6,
  passwordMax: 24,
  accountMax: 64,
  emailMax: 254,
  codeLength: 6,
  invitationCodeMax: 16,
  rtokenMin: 6,
  rtokenMax: 16,
  siweMessageMax: 2000,
  signatureMax: 200,
} as const;

/** `login` lets an email or phone customer sign in by a code instead of the password. */
/** `bind` goes to a new contact, `unbind` to the customer's current one before it is replaced (profile). */
export const CODE_SCENES = ['register', 'reset', 'login', 'bind', 'withdraw', 'unbind'] as const;
export type CodeScene = (typeof CODE_SCENES)[number];

/** Fields every call may carry (API.md): they are accepted everywhere and never "unknown". */
export const CommonFields = {
  token: Type.Optional(Type.String({ maxLength: 128 })),
  lang: Type.Optional(Type.String({ maxLength: 8 })),
  rtoken: Type.Optional(Type.String({ maxLength: ACCESS_LIMITS.rtokenMax })),
};

const account = Type.String({ minLength: 1, maxLength: ACCESS_LIMITS.emailMax });
const areaCode = Type.String({ maxLength: 6 });
const password = Type.String({ minLength: 1, maxLength: ACCESS_LIMITS.passwordMax });
const code = Type.String({ minLength: 1, maxLength: ACCESS_LIMITS.codeLength });

export const GetCodeQuery = Type.Object(
  {
    ...CommonFields,
    account,
    area_code: Type.Optional(areaCode),
    scene: Type.Union([
      Type.Literal('register'),
      Type.Literal('reset'),
      Type.Literal('login'),
      Type.Literal('bind'),
      Type.Literal('withdraw'),
      Type.Literal('unbind'),
    ]),
  },
  { additionalProperties: false },
);
export type GetCodeQuery = Static<typeof GetCodeQuery>;
export type GetCodeData = { expires_in: number; resend_in: number };

export const RegisterBody = Type.Object(
  {
    ...CommonFields,
    type: Type.Union([Type.Literal('email'), Type.Literal('phone')]),
    account,
    area_code: Type.Optional(areaCode),
    /** ISO 3166-1 alpha-2 country of the phone tab; nationality cannot change later (spec 5). */
    country: Type.Optional(Type.String({ maxLength: 2 })),
    code,
    password,
    password2: password,
    invitation_code: Type.Optional(Type.String({ maxLength: ACCESS_LIMITS.invitationCodeMax })),
    agree: Type.Optional(Type.String({ maxLength: 1 })),
  },
  { additionalProperties: false },
);
export type RegisterBody = Static<typeof RegisterBody>;
export type RegisterData = { token_h5: string; uid: string };

/** Either `password`, or `code` from `getCode` with scene `login` (email or phone accounts). */
export const LoginBody = Type.Object(
  {
    ...CommonFields,
    account,
    password: Type.Optional(password),
    code: Type.Optional(code),
    area_code: Type.Optional(areaCode),
  },
  { additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBody>;
export type LoginData = { token: string; uid: string };

export type TempLoginData = { token: string; uid: string; expires_at: number };

/** Change (old_password) or reset (account + code) — one call, as the spec names it. */
export const UpdatePasswordBody = Type.Object(
  {
    ...CommonFields,
    old_password: Type.Optional(password),
    account: Type.Optional(account),
    area_code: Type.Optional(areaCode),
    code: Type.Optional(code),
    password,
    password2: password,
  },
  { additionalProperties: false },
);
export type UpdatePasswordBody = Static<typeof UpdatePasswordBody>;

export const EmptyBody = Type.Object({ ...CommonFields }, { additionalProperties: false });

export type InfoData = {
  uid: string;
  name: string;
  email: string;
  phone: string;
  /** Phone, else email, cut to 12 characters (spec 3). */
  phone_display: string;
  area_code: string;
  country: string;
  invitation_code: string;
  invite_link: string;
  /** '0' not set, '1' set. */
  transaction_password: '0' | '1';
  language: string;
  is_demo: 0 | 1;
  demo_expires_at: number | null;
  wallet_address: string;
  created_at: number;
};

export const WalletNonceQuery = Type.Object(
  { ...CommonFields, address: Type.String({ minLength: 1, maxLength: 42 }) },
  { additionalProperties: false },
);
/** What the app needs to build the EIP-4361 message it asks the wallet to sign. */
export type WalletNonceData = {
  nonce: string;
  domain: string;
  uri: string;
  chain_id: number;
  statement: string;
  issued_at: string;
  expiration_time: string;
  version: '1';
};

export const WalletLoginBody = Type.Object(
  {
    ...CommonFields,
    message: Type.String({ minLength: 1, maxLength: ACCESS_LIMITS.siweMessageMax }),
    signature: Type.String({ minLength: 1, maxLength: ACCESS_LIMITS.signatureMax }),
  },
  { additionalProperties: false },
);
export type WalletLoginBody = Static<typeof WalletLoginBody>;

export const SetLanguageBody = Type.Object(
  { ...CommonFields, language: Type.String({ minLength: 1, maxLength: 8 }) },
  { additionalProperties: false },
);

/** Public settings the app needs before login (registration rules are shown before they refuse). */
export type PublicConfigData = {
  invitation_required: boolean;
  password_min: number;
  password_max: number;
  demo_ttl_hours: number;
  login_max_failures: number;
  login_lock_minutes: number;
  feed_mode: string;
};
