import type { MyPromotionData, Paged, PromotionIncomeData, PromotionInviteeData } from '@bourse/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/api.ts';
import { useLang } from '../../lib/i18n.ts';
import { useToken } from '../../lib/session.ts';

/**
 * The invitation calls (packages/protocol/src/referral.ts, docs/api.md "Invitations"): my code,
 * link, levels and totals; my invitees (masked); my income lines, each naming its fee (the remark
 * comes in the request's language, so it is asked again when the language changes).
 */

const PROMOTION = 'web/getMyPromotion';
const INVITEES = 'web/getPromotionInvitees';
const INCOME = 'web/getPromotionIncome';

/** Rows per page of both lists. */
export const INVITE_PAGE_SIZE = 10;

/** `GET web/getMyPromotion` (login). */
export function usePromotion() {
  const token = useToken();
  return useQuery({
    queryKey: [PROMOTION, token],
    queryFn: () => apiGet<MyPromotionData>(PROMOTION),
    enabled: token !== null,
  });
}

/** `GET web/getPromotionInvitees` (login): one page, newest first. */
export function useInvitees(page: number) {
  const token = useToken();
  return useQuery({
    queryKey: [INVITEES, token, page],
    queryFn: () =>
      apiGet<Paged<PromotionInviteeData>>(INVITEES, {
        page: String(page),
        page_size: String(INVITE_PAGE_SIZE),
      }),
    enabled: token !== null,
    placeholderData: keepPreviousData,
  });
}

/** `GET web/getPromotionIncome` (login): one page of paid lines, newest first. */
export function useIncome(page: number) {
  const token = useToken();
  const lang = useLang();
  return useQuery({
    queryKey: [INCOME, token, page, lang],
    queryFn: () =>
      apiGet<Paged<PromotionIncomeData>>(INCOME, { page: String(page), page_size: String(INVITE_PAGE_SIZE) }),
    enabled: token !== null,
    placeholderData: keepPreviousData,
  });
}
