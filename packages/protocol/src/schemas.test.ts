import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import * as protocol from './index.ts';
import {
  ASSET_CLASSES,
  BuyOptionBody,
  CODE,
  CODE_SCENES,
  CreateAdjustmentBody,
  CreateOrderBody,
  CustodyDepositEvent,
  GetCodeQuery,
  GetInstrumentsQuery,
  GetKlineQuery,
  httpStatusOf,
  KLINE_INTERVALS,
  LoginBody,
  OpenContractBody,
  REASON_CODES,
  REASONS,
  RegisterBody,
  SPOT_SIDES,
  SPOT_TIFS,
  TransferBody,
  WithdrawBody,
} from './index.ts';

/**
 * The request schemas are the one definition of every call: Fastify validates with them, the apps
 * type their forms with them. These tests check that valid examples (in their wire form: every
 * amount a decimal string) pass, and that each way of getting a call wrong is refused — a missing
 * required field, an unknown field, an amount sent as a JSON number, a value outside an enum, a
 * string over its limit. (A string that is not a decimal, e.g. "1e5", passes the schema and is
 * refused by the service with AMOUNT_INVALID, in the customer's language.)
 */

type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean;
  anyOf?: Schema[];
  const?: unknown;
  maxLength?: number;
  pattern?: string;
};

const OBJECT_SCHEMAS = (Object.entries(protocol) as Array<[string, unknown]>).filter(
  (entry): entry is [string, Schema] => {
    const value = entry[1] as Schema | undefined;
    return typeof value === 'object' && value !== null && value.type === 'object' && !!value.properties;
  },
);

/** Field names that carry money or a price, a quantity or a rate: always decimal strings on the wire. */
const MONEY_FIELD =
  /(^|_)(amount|price|prices|stake|quantity|lots|fee|fees|margin|notional|balance|rate|tick|size|threshold)(_|$)/;

const literalsOf = (schema: Schema | undefined) =>
  schema?.anyOf?.every((s) => s.const !== undefined) ? schema.anyOf.map((s) => s.const) : null;

/** Wire form: what arrives after JSON or a form is parsed. */
const wire = <T>(value: T): T => JSON.parse(JSON.stringify(value));

const EXAMPLES: Array<[string, Schema, Record<string, unknown>]> = [
  [
    'LoginBody',
    LoginBody,
    { account: 'ann@example.com', password: 'secret123', lang: 'zh', rtoken: 'abcdefgh' },
  ],
  [
    'RegisterBody',
    RegisterBody,
    {
      type: 'phone',
      account: '91234567',
      area_code: '852',
      country: 'HK',
      code: '123456',
      password: 'secret123',
      password2: 'secret123',
      agree: '1',
    },
  ],
  ['GetCodeQuery', GetCodeQuery, { account: 'ann@example.com', scene: 'register' }],
  [
    'CreateOrderBody',
    CreateOrderBody,
    {
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'limit',
      price: '95000.5',
      quantity: '0.001',
      tif: 'GTC',
      post_only: '1',
      client_oid: 'my-order_1',
    },
  ],
  ['TransferBody', TransferBody, { currency: 'USDT', amount: '10.5', from: 'spot', to: 'contract' }],
  [
    'OpenContractBody',
    OpenContractBody,
    { symbol: 'BTC/USDT-PERP', side: 'sell', lots: '2', leverage: '10', tp_price: '', sl_price: '99000' },
  ],
  ['BuyOptionBody', BuyOptionBody, { symbol: 'BTC/USDT', direction: 'up', stake: '100', duration: '60' }],
  [
    'WithdrawBody',
    WithdrawBody,
    { method: 'address', address_id: 'wad_1', currency: 'USDT', amount: '25', trade_password: '123456' },
  ],
  [
    'GetKlineQuery',
    GetKlineQuery,
    { symbol: 'BTC/USDT', interval: '1h', limit: '200', end_time: '1764000000000' },
  ],
  [
    'CustodyDepositEvent',
    CustodyDepositEvent,
    {
      type: 'deposit',
      chain: 'TRC20',
      txid: 'ab12CD34',
      output_index: 0,
      address: 'TXYZ1234',
      currency: 'USDT',
      amount: '100.25',
      confirmations: 12,
      status: 'success',
    },
  ],
  [
    'CreateAdjustmentBody',
    CreateAdjustmentBody,
    {
      customer_id: 'usr_01',
      account_type: 'spot',
      currency: 'USDT',
      direction: 'credit',
      amount: '5',
      reason: 'goodwill for the outage',
    },
  ],
];

describe('every request schema', () => {
  it('there are request schemas to check', () => {
    expect(OBJECT_SCHEMAS.length).toBeGreaterThan(50);
  });

  it('refuses unknown fields (additionalProperties: false), so nothing is silently dropped', () => {
    const open = OBJECT_SCHEMAS.filter(([, s]) => s.additionalProperties !== false).map(([name]) => name);
    expect(open).toEqual([]);
  });

  it('carries every amount, price, quantity, fee and rate as a string, never a JSON number', () => {
    const checked: string[] = [];
    const numeric: string[] = [];
    for (const [name, schema] of OBJECT_SCHEMAS) {
      for (const [field, property] of Object.entries(schema.properties ?? {})) {
        if (!MONEY_FIELD.test(field) || field === 'page_size') continue;
        checked.push(`${name}.${field}`);
        const types = property.anyOf ? property.anyOf.map((s) => s.type) : [property.type];
        if (!types.every((t) => t === 'string')) numeric.push(`${name}.${field}`);
      }
    }
    expect(numeric).toEqual([]);
    expect(checked.length).toBeGreaterThan(30);
  });
});

describe.each(EXAMPLES)('%s', (_name, schema, example) => {
  it('accepts the valid example in its wire form', () => {
    const errors = [...Value.Errors(schema as never, wire(example))];
    expect(errors).toEqual([]);
  });

  it('refuses it without each required field', () => {
    for (const field of schema.required ?? []) {
      const { [field]: _dropped, ...rest } = example;
      expect(Value.Check(schema as never, rest), `without ${field}`).toBe(false);
    }
  });

  it('refuses an unknown field', () => {
    expect(Value.Check(schema as never, { ...example, surprise: '1' })).toBe(false);
  });

  it('refuses an amount or price sent as a JSON number', () => {
    const fields = Object.keys(schema.properties ?? {}).filter((f) => MONEY_FIELD.test(f));
    for (const field of fields) {
      const value = Number(example[field] ?? '1') || 1;
      expect(Value.Check(schema as never, { ...example, [field]: value }), field).toBe(false);
    }
  });

  it('refuses a value outside each enum, and a string over its limit', () => {
    for (const [field, property] of Object.entries(schema.properties ?? {})) {
      if (literalsOf(property))
        expect(Value.Check(schema as never, { ...example, [field]: 'bogus' }), field).toBe(false);
      if (property.type === 'string' && property.maxLength !== undefined) {
        const long = 'x'.repeat(property.maxLength + 1);
        expect(Value.Check(schema as never, { ...example, [field]: long }), field).toBe(false);
      }
    }
  });
});

describe('field formats the schemas own', () => {
  const check = (schema: Schema, value: Record<string, unknown>) => Value.Check(schema as never, value);
  const order = EXAMPLES[3]?.[2] ?? {};
  const contract = EXAMPLES[5]?.[2] ?? {};
  const option = EXAMPLES[6]?.[2] ?? {};
  const deposit = EXAMPLES[9]?.[2] ?? {};

  it('client_oid: letters, digits, - and _ only, at most 36', () => {
    expect(check(CreateOrderBody, { ...order, client_oid: 'a'.repeat(36) })).toBe(true);
    for (const bad of ['has space', 'semi;colon', '', 'a'.repeat(37)])
      expect(check(CreateOrderBody, { ...order, client_oid: bad }), bad).toBe(false);
  });

  it('leverage and duration are whole numbers in digits', () => {
    for (const bad of ['10x', '-1', '1.5', '', '1000'])
      expect(check(OpenContractBody, { ...contract, leverage: bad }), bad).toBe(false);
    for (const bad of ['-60', '60s', '1234567'])
      expect(check(BuyOptionBody, { ...option, duration: bad }), bad).toBe(false);
  });

  it('a custody event: txid alphanumeric, indexes and confirmations whole and not negative', () => {
    expect(check(CustodyDepositEvent, { ...deposit, txid: 'ab-12' })).toBe(false);
    expect(check(CustodyDepositEvent, { ...deposit, output_index: -1 })).toBe(false);
    expect(check(CustodyDepositEvent, { ...deposit, confirmations: 1.5 })).toBe(false);
    expect(check(CustodyDepositEvent, { ...deposit, confirmations: '12' })).toBe(false);
    expect(check(CustodyDepositEvent, { ...deposit, type: 'withdrawal' })).toBe(false);
  });

  it('the common fields (token, lang, rtoken) are accepted by every customer call', () => {
    for (const [, schema, example] of EXAMPLES.filter(([name]) => name !== 'CustodyDepositEvent')) {
      expect(check(schema, { ...example, token: 't'.repeat(64), lang: 'ft', rtoken: 'abcdefgh' })).toBe(true);
    }
  });
});

describe('enums: the schema and the exported list are one', () => {
  it.each([
    ['CreateOrderBody.side', literalsOf(CreateOrderBody.properties.side as Schema), SPOT_SIDES],
    ['CreateOrderBody.tif', literalsOf(CreateOrderBody.properties.tif as Schema), SPOT_TIFS],
    ['GetKlineQuery.interval', literalsOf(GetKlineQuery.properties.interval as Schema), KLINE_INTERVALS],
    ['GetCodeQuery.scene', literalsOf(GetCodeQuery.properties.scene as Schema), CODE_SCENES],
    ['GetInstrumentsQuery.class', literalsOf(GetInstrumentsQuery.properties.class as Schema), ASSET_CLASSES],
  ])('%s', (_field, literals, list) => {
    expect(literals).toEqual([...list]);
  });
});

describe('the envelope and the reason registry', () => {
  it('codes 0, 1, 7, 1000 and 2000 travel with HTTP 200; 4xx and 5xx codes are their own status', () => {
    for (const code of [CODE.REFUSED, CODE.OK, CODE.SILENT, CODE.SESSION_ENDED, CODE.SESSION_CONFIRM])
      expect(httpStatusOf(code)).toBe(200);
    for (const code of [400, 403, 404, 409, 413, 415, 429, 500] as const)
      expect(httpStatusOf(code)).toBe(code);
  });

  it('every reason has an envelope code from CODE and named parameters', () => {
    const codes = new Set<number>(Object.values(CODE));
    for (const reason of REASON_CODES) {
      expect(codes.has(REASONS[reason].code), reason).toBe(true);
      expect(REASONS[reason].code, reason).not.toBe(CODE.OK);
      for (const param of REASONS[reason].params) expect(param, reason).toMatch(/^[a-z][A-Za-z_]*$/);
    }
    expect(REASON_CODES.every((r) => /^[A-Z][A-Z0-9_]*$/.test(r))).toBe(true);
  });
});
