import type {
  CreditScoreData,
  LendBackData,
  LendListData,
  LendMyData,
  LendMylistData,
  LoanData,
  LoanDetailData,
  LoanQuoteData,
  LoanRepaymentMethod,
  LoanStatus,
  ScoreReviewData,
} from '@bourse/protocol';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../lib/api.ts';
import { useLang } from '../../lib/i18n.ts';
import { useToken } from '../../lib/session.ts';

/**
 * The loan calls (packages/protocol/src/loans.ts; modules/loans README). Product names, descriptions
 * and lender names come in the request's language, so the language is part of every such query's key
 * and is sent as that key says; the token is part of the keys whose answer depends on who asks.
 */

/** `GET web/getCreditScore` (login; the profile's `credit_score` rule): my score, its breakdown, the limit, the table, the rules. */
export function useCreditScore() {
  const token = useToken();
  const lang = useLang();
  return useQuery({
    queryKey: ['web/getCreditScore', token, lang],
    queryFn: () => apiGet<CreditScoreData>('web/getCreditScore', { lang }),
    enabled: token !== null,
    staleTime: 30_000,
  });
}

/** `GET web/lendList` (public): products on offer, the caps they obey, the agreement version, the verification rules. */
export function useLendList() {
  const lang = useLang();
  return useQuery({
    queryKey: ['web/lendList', lang],
    queryFn: () => apiGet<LendListData>('web/lendList', { lang }),
    // A language switch keeps the form on /credit (amount, term, ticks) while the names re-load.
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

/** `GET web/getLoanQuote` (public): the whole loan before anything is submitted; `null` input: not asked. */
export function useLoanQuote(input: { product_id: string; amount: string; term_days: number } | null) {
  const lang = useLang();
  return useQuery({
    queryKey: ['web/getLoanQuote', input, lang],
    queryFn: () =>
      apiGet<LoanQuoteData>('web/getLoanQuote', {
        product_id: input?.product_id ?? '',
        amount: input?.amount ?? '',
        term_days: String(input?.term_days ?? ''),
        lang,
      }),
    enabled: input !== null,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    retry: false,
  });
}

/** `GET web/lendMy` (login): my score and limit, the loan in progress, what I owe. */
export function useLendMy() {
  const token = useToken();
  const lang = useLang();
  return useQuery({
    queryKey: ['web/lendMy', token, lang],
    queryFn: () => apiGet<LendMyData>('web/lendMy', { lang }),
    enabled: token !== null,
    staleTime: 10_000,
  });
}

export type LoansFilter = { state?: LoanStatus; page: number; page_size: number };

/** `GET web/lendMylist` (login): my loans and applications, newest first, in pages. */
export function useLendMylist(filter: LoansFilter) {
  const token = useToken();
  const lang = useLang();
  return useQuery({
    queryKey: ['web/lendMylist', filter, token, lang],
    queryFn: () =>
      apiGet<LendMylistData>('web/lendMylist', {
        state: filter.state,
        page: String(filter.page),
        page_size: String(filter.page_size),
        lang,
      }),
    enabled: token !== null,
    placeholderData: keepPreviousData,
  });
}

/** `GET web/getLoan` (login): one loan with every charged day, every repayment and the payoff today. */
export function useLoan(loanId: string | null) {
  const token = useToken();
  const lang = useLang();
  return useQuery({
    queryKey: ['web/getLoan', loanId, token, lang],
    queryFn: () => apiGet<LoanDetailData>('web/getLoan', { loan_id: loanId ?? '', lang }),
    enabled: token !== null && loanId !== null && loanId !== '',
    // The same loan of the same customer in another language: keep the page (and the amount typed
    // into the repay form) while it re-loads; never another loan's or another session's.
    placeholderData: (previous, query) =>
      query?.queryKey[1] === loanId && query?.queryKey[2] === token ? previous : undefined,
    refetchInterval: 60_000,
  });
}

const MINE = ['web/lendMy', 'web/lendMylist', 'web/getLoan', 'web/getCreditScore', 'web/getAsset2'];

function useRefreshMine() {
  const client = useQueryClient();
  return () => Promise.all(MINE.map((key) => client.invalidateQueries({ queryKey: [key] })));
}

/** `POST web/requestScoreReview` (login, idempotent): ask a person to review my score. */
export function useRequestScoreReview() {
  const refresh = useRefreshMine();
  const lang = useLang();
  return useMutation({
    mutationFn: (input: { note: string }) =>
      apiPost<ScoreReviewData>('web/requestScoreReview', {
        ...(input.note.trim() ? { note: input.note.trim() } : {}),
        lang,
      }),
    onSettled: refresh,
  });
}

export type ApplyInput = {
  product_id: string;
  amount: string;
  term_days: number;
  agreement_version: string;
  proof_ids: string[];
  reapply_of: string | null;
};

/** `POST web/applyLoan` (login, idempotent): the agreement accepted with its version, proofs, the re-application link. */
export function useApplyLoan() {
  const refresh = useRefreshMine();
  const lang = useLang();
  return useMutation({
    mutationFn: (input: ApplyInput) =>
      apiPost<LoanData>('web/applyLoan', {
        product_id: input.product_id,
        amount: input.amount,
        term_days: String(input.term_days),
        accept_agreement: '1',
        agreement_version: input.agreement_version,
        ...(input.proof_ids.length > 0 ? { proof_ids: input.proof_ids.join(',') } : {}),
        ...(input.reapply_of ? { reapply_of: input.reapply_of } : {}),
        lang,
      }),
    onSettled: refresh,
  });
}

/** `POST web/withdrawLoan` (login, idempotent): withdraw an application still unreviewed. */
export function useWithdrawLoan() {
  const refresh = useRefreshMine();
  const lang = useLang();
  return useMutation({
    mutationFn: (loanId: string) => apiPost<LoanData>('web/withdrawLoan', { loan_id: loanId, lang }),
    onSettled: refresh,
  });
}

/** `POST web/lendBack` (login, idempotent): repay from the balance, or hand in a bank-transfer voucher. */
export function useLendBack() {
  const refresh = useRefreshMine();
  const lang = useLang();
  return useMutation({
    mutationFn: (input: {
      loan_id: string;
      amount: string;
      method: LoanRepaymentMethod;
      voucher_id: string | null;
    }) =>
      apiPost<LendBackData>('web/lendBack', {
        loan_id: input.loan_id,
        amount: input.amount,
        method: input.method,
        ...(input.method === 'voucher' && input.voucher_id ? { voucher_id: input.voucher_id } : {}),
        lang,
      }),
    onSettled: refresh,
  });
}
