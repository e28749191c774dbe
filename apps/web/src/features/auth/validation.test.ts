import { ACCESS_LIMITS } from '@bourse/protocol';
import { describe, expect, it } from 'vitest';
import {
  checkChanged,
  checkCode,
  checkConfirm,
  checkEmail,
  checkInvitation,
  checkLoginAccount,
  checkPassword,
  checkPhone,
  parsePhone,
} from './validation.ts';

const rule = { min: ACCESS_LIMITS.passwordMin, max: ACCESS_LIMITS.passwordMax };

describe('access form checks', () => {
  it('emails', () => {
    expect(checkEmail('')).toEqual({ kind: 'required', field: 'account' });
    expect(checkEmail('a@b')).toEqual({ kind: 'email' });
    expect(checkEmail('name@example.com')).toBeNull();
  });

  it('phones, by country', () => {
    expect(checkPhone('51234567', 'HK')).toBeNull();
    expect(checkPhone('123', 'HK')).toEqual({ kind: 'phone' });
    expect(parsePhone('138 0013 8000', 'CN')).toEqual({
      national: '13800138000',
      areaCode: '86',
      country: 'CN',
    });
    expect(parsePhone('+44 7911 123456', 'CN')?.areaCode).toBe('44');
  });

  it('login accounts: names, emails and phones', () => {
    expect(checkLoginAccount('trader_01', 'US')).toBeNull();
    expect(checkLoginAccount('x', 'US')).toEqual({ kind: 'account' });
    expect(checkLoginAccount('13800138000', 'CN')).toBeNull();
    expect(checkLoginAccount('a@b', 'US')).toEqual({ kind: 'email' });
  });

  it('passwords', () => {
    expect(checkPassword('12345', rule)).toEqual({ kind: 'passwordLength', ...rule });
    expect(checkPassword('x'.repeat(rule.max + 1), rule)).toEqual({ kind: 'passwordLength', ...rule });
    expect(checkPassword('123456', rule)).toBeNull();
    expect(checkConfirm('123456', '1234567')).toEqual({ kind: 'mismatch' });
    expect(checkConfirm('123456', '')).toEqual({ kind: 'required', field: 'password2' });
    expect(checkChanged('same12', 'same12')).toEqual({ kind: 'unchanged' });
  });

  it('codes and invitations', () => {
    expect(checkCode('12345')).toEqual({ kind: 'code', length: ACCESS_LIMITS.codeLength });
    expect(checkCode('123456')).toBeNull();
    expect(checkInvitation('', true)).toEqual({ kind: 'invitation' });
    expect(checkInvitation('', false)).toBeNull();
    expect(checkInvitation('x'.repeat(ACCESS_LIMITS.invitationCodeMax + 1), false)?.kind).toBe('tooLong');
  });
});
