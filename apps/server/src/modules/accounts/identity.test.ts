import { describe, expect, it } from 'vitest';
import { parseEmail, parseLoginAccount, parsePhone } from './identity.ts';

describe('identity parsing', () => {
  it.each([
    ['Bob@Example.COM', 'bob@example.com'],
    [' a.b+c@x.io ', 'a.b+c@x.io'],
  ])('accepts email %s', (raw, email) => expect(parseEmail(raw)).toBe(email));

  it.each(['', 'bob', 'bob@', '@x.io', 'bob@x', 'a b@x.io', 'a@@x.io', `${'a'.repeat(65)}@x.io`])(
    'refuses email %j',
    (raw) => expect(parseEmail(raw)).toBeNull(),
  );

  it('normalises phones to E.164 with area code or country', () => {
    expect(parsePhone('13800138000', { areaCode: '86' })).toMatchObject({
      phone: '+8613800138000',
      areaCode: '86',
      country: 'CN',
    });
    expect(parsePhone('07911 123456', { country: 'GB' })).toMatchObject({
      phone: '+447911123456',
      areaCode: '44',
    });
    expect(parsePhone('+85291234567', {})).toMatchObject({ phone: '+85291234567', country: 'HK' });
  });

  it.each([
    ['123', { areaCode: '86' }],
    ['13800138000', {}],
    ['13800138000', { areaCode: '1' }],
    ['+8613800138000', { areaCode: '44' }],
    ['abc', { areaCode: '86' }],
    ['13800138000', { areaCode: '86a' }],
  ])('refuses phone %j %j', (raw, options) => expect(parsePhone(raw, options)).toBeNull());

  it('reads a login field as email, phone or account name', () => {
    expect(parseLoginAccount('x@y.io', {})).toEqual({ kind: 'email', email: 'x@y.io' });
    expect(parseLoginAccount('+8613800138000', {})?.kind).toBe('phone');
    expect(parseLoginAccount('trader_01', {})).toEqual({ kind: 'name', name: 'trader_01' });
    expect(parseLoginAccount('x', {})).toBeNull();
  });
});
