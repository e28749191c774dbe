import { SigninClaimBody, SigninEmptyQuery } from '@bourse/protocol';
import { authOf } from '../../http/request.ts';
import { type WebRoute, webRouteTable } from '../../http/route-table.ts';
import type { Signin } from './service.ts';

/**
 * The sign-in reward under /api/web (the spec's `/signRule`). `GET web/signin` is open: the
 * programme as data, and the customer's streak when a session comes with it; `POST web/signin`
 * signs the session's customer in for today (idempotent by rtoken; once per customer-day anyway).
 */
function routes(signin: Signin): WebRoute[] {
  return [
    {
      method: 'GET',
      url: '/signin',
      summary:
        'The sign-in programme (state, time zone, seven amounts, condition, budget left) and my streak',
      schema: { querystring: SigninEmptyQuery },
      auth: 'optional',
      handler: (r) => signin.info(r.auth),
    },
    {
      method: 'POST',
      url: '/signin',
      summary:
        'Sign in for today: paid once per customer-day from the marketing budget as promotional credit',
      schema: { body: SigninClaimBody },
      auth: 'required',
      handler: (r) => signin.claim(authOf(r)),
    },
  ];
}

export function signinRoutes(signin: Signin) {
  return webRouteTable(['signin'], routes(signin));
}
