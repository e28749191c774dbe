import { type Static, Type } from 'typebox';
import { ACCESS_LIMITS, CommonFields } from './access.ts';

/**
 * The profile and security centre (issue 15, point 5): account name, phone and e-mail binding,
 * security questions, the anti-phishing phrase, signed-in devices and the security score.
 * Limits are shared by the server's checks and the app's forms.
 */
export const PROFILE_LIMITS = {
  /** Account name: a letter, then letters, digits, `_`, `.`, `-`; 3–32 characters (identity.ts NAME). */
  nameMin: 3,
  nameMax: 32,
  /** After the first setting, the name may change once per this many days. */
  nameChangeDays: 30,
  /** A security answer after normalisation (NFKC, trimmed, inner spaces collapsed, lower case). */
  answerMin: 2,
  answerMax: 64,
  /** The anti-phishing phrase after NFKC and trimming; no control or format characters. */
  phraseMin: 4,
  phraseMax: 20,
  /** Staff checks of one customer's answers per rolling hour. */
  answerChecksPerHour: 5,
} as const;

/** The spec's three questions: 1 best friend, 2 idol, 3 most longed-for place. */
export const SECURITY_QUESTIONS = [1, 2, 3] as const;
export type SecurityQuestion = (typeof SECURITY_QUESTIONS)[number];

const password = Type.String({ minLength: 1, maxLength: ACCESS_LIMITS.passwordMax });
const code = Type.String({ minLength: 1, maxLength: ACCESS_LIMITS.codeLength });
/** Raw answers may carry spaces the normalisation removes: the schema allows some room. */
const answer = Type.String({ maxLength: PROFILE_LIMITS.answerMax * 2 });

export const SetUsernameBody = Type.Object(
  { ...CommonFields, name: Type.String({ maxLength: 64 }) },
  { additionalProperties: false },
);
export type SetUsernameBody = Static<typeof SetUsernameBody>;

/**
 * Bind a missing phone or e-mail (`code`: from `getCode` scene `bind` to the new contact) or change
 * an existing one (`old_code` too: from `getCode` scene `unbind` to the current contact).
 */
export const BindContactBody = Type.Object(
  {
    ...CommonFields,
    type: Type.Union([Type.Literal('email'), Type.Literal('phone')]),
    account: Type.String({ minLength: 1, maxLength: ACCESS_LIMITS.emailMax }),
    area_code: Type.Optional(Type.String({ maxLength: 6 })),
    code,
    old_code: Type.Optional(code),
  },
  { additionalProperties: false },
);
export type BindContactBody = Static<typeof BindContactBody>;
export type BindContactData = { email: string; phone: string; area_code: string };

export const SetSecurityQuestionsBody = Type.Object(
  { ...CommonFields, password, answer1: answer, answer2: answer, answer3: answer },
  { additionalProperties: false },
);
export type SetSecurityQuestionsBody = Static<typeof SetSecurityQuestionsBody>;

/** An empty `phrase` removes it. */
export const SetPhraseBody = Type.Object(
  { ...CommonFields, password, phrase: Type.String({ maxLength: 64 }) },
  { additionalProperties: false },
);
export type SetPhraseBody = Static<typeof SetPhraseBody>;

export const RevokeDeviceBody = Type.Object(
  { ...CommonFields, id: Type.String({ minLength: 1, maxLength: 40 }) },
  { additionalProperties: false },
);
export type RevokeDeviceBody = Static<typeof RevokeDeviceBody>;

export type DeviceRow = {
  id: string;
  created_at: number;
  ip: string;
  browser: string;
  os: string;
  /** The session this request came with. */
  current: boolean;
};
export type DevicesData = { list: DeviceRow[] };

export const SECURITY_ITEMS = [
  'login_password',
  'trade_password',
  'google',
  'phone',
  'email',
  'questions',
  'phrase',
  'verification',
] as const;
export type SecurityItemKey = (typeof SECURITY_ITEMS)[number];

export type SecurityItem = {
  key: SecurityItemKey;
  /** Points this item is worth at most, and what the customer has of them. */
  points: number;
  earned: number;
  done: boolean;
  /** Where the customer goes to do it (an app path). */
  link: string;
};

/** `web/securityCenter`: the score, its items, the next step, and the profile settings it reads. */
export type SecurityCenterData = {
  score: number;
  max: number;
  items: SecurityItem[];
  /** The first item not done, in the order of `items` (most protective first); null when all are. */
  next: SecurityItem | null;
  name: string;
  /** When the name may next change (ms), or null when it may now. */
  name_change_at: number | null;
  email: string;
  phone: string;
  area_code: string;
  questions_set: boolean;
  phrase: string;
  verification_tier: number;
};

/** Staff: does what the caller says match the customer's stored answer? (audited, rate-limited) */
export const CheckSecurityAnswerBody = Type.Object(
  {
    ...CommonFields,
    customer_id: Type.String({ minLength: 1, maxLength: 40 }),
    question: Type.Union([Type.Literal('1'), Type.Literal('2'), Type.Literal('3')]),
    answer,
    reason: Type.String({ maxLength: 500 }),
  },
  { additionalProperties: false },
);
export type CheckSecurityAnswerBody = Static<typeof CheckSecurityAnswerBody>;
export type CheckSecurityAnswerData = { match: boolean; checks_left: number };
