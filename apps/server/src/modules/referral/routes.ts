import { PromotionEmptyQuery, PromotionIncomeQuery, PromotionInviteesQuery } from '@bourse/protocol';
import { langOf } from '../../http/envelope.ts';
import { authOf } from '../../http/request.ts';
import { queryOf as query, type WebRoute, webRouteTable } from '../../http/route-table.ts';
import type { Referral } from './service.ts';

/**
 * Invitations under /api/web (the spec's `/invite`): the customer is the session's. All reads; the
 * income job pays, no customer call moves money.
 */
function routes(referral: Referral): WebRoute[] {
  return [
    {
      method: 'GET',
      url: '/getMyPromotion',
      summary:
        'My invitation code and link, headcount and income per level, the programme and its exclusions',
      schema: { querystring: PromotionEmptyQuery },
      auth: 'required',
      handler: (r) => referral.myPromotion(authOf(r)),
    },
    {
      method: 'GET',
      url: '/getPromotionInvitees',
      summary: 'The customers I invited (masked), newest first, optionally one level',
      schema: { querystring: PromotionInviteesQuery },
      auth: 'required',
      handler: (r) => referral.invitees(authOf(r), query<PromotionInviteesQuery>(r)),
    },
    {
      method: 'GET',
      url: '/getPromotionIncome',
      summary: 'My referral income lines, each naming the fee it is a share of, newest first',
      schema: { querystring: PromotionIncomeQuery },
      auth: 'required',
      handler: (r) => referral.income(authOf(r), query<PromotionIncomeQuery>(r), langOf(r)),
    },
  ];
}

export function referralRoutes(referral: Referral) {
  return webRouteTable(['referral'], routes(referral));
}
