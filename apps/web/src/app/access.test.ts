import { describe, expect, it } from 'vitest';
import { isOpenPath, OPEN_PATHS } from './access.ts';

describe('access guard paths (spec 2)', () => {
  it('opens exactly the listed paths', () => {
    expect([...OPEN_PATHS].sort()).toEqual(
      [
        '/',
        '/market',
        '/index',
        '/login',
        '/register',
        '/forgetpwd',
        '/text',
        '/downLoad',
        '/help',
        '/helpDetail',
        '/about',
        '/agrt',
        '/bannerDetail',
        '/notice',
        '/security',
        '/benefits',
        '/benefitsDetail',
        '/signRule',
        '/userAgreement',
        '/settingNew',
        '/setting-newdetail',
        '/questionnaire',
        '/verificationCode',
      ].sort(),
    );
  });

  it('is exact and case-sensitive; a trailing slash does not matter', () => {
    expect(isOpenPath('/login/')).toBe(true);
    expect(isOpenPath('/Login')).toBe(false);
    expect(isOpenPath('/setting')).toBe(false);
    expect(isOpenPath('/agreement')).toBe(false);
    expect(isOpenPath('/404')).toBe(false);
    expect(isOpenPath('/login/x')).toBe(false);
  });
});
