/**
 * The access guard's rule, exactly as spec section 2 gives it: these paths open without login; any
 * other path without a stored token goes to /login. Some (/text, /downLoad, /help, …) are not in the
 * route table: they are open and show the not-found page.
 */
export const OPEN_PATHS: ReadonlySet<string> = new Set([
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
]);

/** Exact and case-sensitive, like the routes; a trailing slash is ignored. */
export function isOpenPath(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return OPEN_PATHS.has(path === '' ? '/' : path);
}
