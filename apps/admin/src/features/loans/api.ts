import type {
  AdminJurisdictionData,
  AdminLenderData,
  AdminLenderFundingData,
  AdminLoanData,
  AdminLoanDetailData,
  AdminLoanProductBody,
  AdminLoanProductData,
  AdminLoanQueueItem,
  AdminLoanRejectBody,
  AdminLoanRepaymentData,
  AdminLoanSettingsData,
  AdminLoanWriteOffBody,
  AdminScoreReviewData,
  AdminScoreTableBody,
  CreditTableData,
  DocumentLinkData,
  LoanRepaymentState,
  LoanStatus,
  Paged,
} from '@bourse/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api.ts';

/**
 * The back office's loan calls (`/api/admin/loans/*`, packages/protocol/src/loans.ts): reading needs
 * `loans.read`; products, lenders, funding requests, the score table, settings and closing score
 * reviews `loans.write`; deciding applications, funding requests and vouchers `loans.decide`. Every
 * change carries a reason the server audits. There is no portfolio call and no write-off call.
 */

export const loanKeys = {
  all: ['loans'] as const,
  queue: (page: number) => ['loans', 'queue', page] as const,
  loans: (filter: LoansFilter) => ['loans', 'loans', filter] as const,
  portfolio: ['loans', 'portfolio'] as const,
  loan: (id: string) => ['loans', 'loan', id] as const,
  repayments: (filter: RepaymentsFilter) => ['loans', 'repayments', filter] as const,
  products: ['loans', 'products'] as const,
  lenders: ['loans', 'lenders'] as const,
  funding: (state: string) => ['loans', 'funding', state] as const,
  reviews: (state: string) => ['loans', 'reviews', state] as const,
  table: ['loans', 'score-table'] as const,
  settings: ['loans', 'settings'] as const,
  jurisdiction: ['loans', 'jurisdiction'] as const,
};

export const PAGE_SIZE = 50;
/** The portfolio reads the loan list page by page (100 a page, the server's most) up to this many rows. */
export const PORTFOLIO_ROWS_MAX = 2000;

export function useLoanQueue(page: number) {
  return useQuery({
    queryKey: loanKeys.queue(page),
    queryFn: () => api.get<Paged<AdminLoanQueueItem>>('loans/queue', { page, page_size: PAGE_SIZE }),
  });
}

export type LoansFilter = { state?: LoanStatus; uid?: string; page: number; page_size: number };

export function useLoans(filter: LoansFilter) {
  return useQuery({
    queryKey: loanKeys.loans(filter),
    queryFn: () => api.get<Paged<AdminLoanData>>('loans/loans', filter),
  });
}

/** Every loan and application (up to PORTFOLIO_ROWS_MAX): what the portfolio figures are summed from. */
export function usePortfolioLoans() {
  return useQuery({
    queryKey: loanKeys.portfolio,
    queryFn: async () => {
      const items: AdminLoanData[] = [];
      let total = 0;
      for (let page = 1; items.length < PORTFOLIO_ROWS_MAX; page += 1) {
        const got = await api.get<Paged<AdminLoanData>>('loans/loans', { page, page_size: 100 });
        total = got.total;
        items.push(...got.items);
        if (got.items.length === 0 || items.length >= total) break;
      }
      return { items, total };
    },
  });
}

export function useLoanDetail(id: string | null) {
  return useQuery({
    queryKey: loanKeys.loan(id ?? ''),
    queryFn: () => api.get<AdminLoanDetailData>(`loans/loans/${encodeURIComponent(id ?? '')}`),
    enabled: id !== null,
  });
}

export type RepaymentsFilter = { state?: LoanRepaymentState; page: number; page_size: number };

export function useRepayments(filter: RepaymentsFilter) {
  return useQuery({
    queryKey: loanKeys.repayments(filter),
    queryFn: () => api.get<Paged<AdminLoanRepaymentData>>('loans/repayments', filter),
  });
}

export function useLoanProducts() {
  return useQuery({
    queryKey: loanKeys.products,
    queryFn: () => api.get<{ items: AdminLoanProductData[] }>('loans/products'),
  });
}

export function useLenders() {
  return useQuery({
    queryKey: loanKeys.lenders,
    queryFn: () => api.get<{ items: AdminLenderData[] }>('loans/lenders'),
  });
}

export function useFundingRequests(state: '' | AdminLenderFundingData['state']) {
  return useQuery({
    queryKey: loanKeys.funding(state),
    queryFn: () =>
      api.get<Paged<AdminLenderFundingData>>('loans/funding-requests', { state, page_size: 100 }),
  });
}

export function useScoreReviews(state: '' | 'open' | 'closed') {
  return useQuery({
    queryKey: loanKeys.reviews(state),
    queryFn: () => api.get<Paged<AdminScoreReviewData>>('loans/score-reviews', { state, page_size: 100 }),
  });
}

export function useScoreTable() {
  return useQuery({ queryKey: loanKeys.table, queryFn: () => api.get<CreditTableData>('loans/score-table') });
}

export function useLoanSettings() {
  return useQuery({
    queryKey: loanKeys.settings,
    queryFn: () => api.get<AdminLoanSettingsData>('loans/settings'),
  });
}

/** The active jurisdiction profile (needs `risk.read`): it picks the caps a product is held to. */
export function useActiveProfile() {
  return useQuery({
    queryKey: loanKeys.jurisdiction,
    queryFn: () => api.get<AdminJurisdictionData>('jurisdiction'),
    retry: false,
  });
}

/** A 5-minute link to a proof or voucher; each one is audited by the server. */
export function documentLink(loanId: string, fileId: string): Promise<DocumentLinkData> {
  return api.get<DocumentLinkData>('loans/documentLink', { loan_id: loanId, file_id: fileId });
}

/** Every write refreshes every loan screen (a decision moves the queue, the portfolio and the lenders). */
function useLoansWrite<I, O>(call: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => client.invalidateQueries({ queryKey: loanKeys.all }),
  });
}

const path = (...parts: string[]) => parts.map(encodeURIComponent).join('/');

export const useApprove = () =>
  useLoansWrite((i: { id: string; reason: string }) =>
    api.postJson<AdminLoanData>(`loans/applications/${path(i.id)}/approve`, { reason: i.reason }),
  );

export const useReject = () =>
  useLoansWrite((i: { id: string } & Pick<AdminLoanRejectBody, 'reason_code' | 'reason'>) =>
    api.postJson<AdminLoanData>(`loans/applications/${path(i.id)}/reject`, {
      reason_code: i.reason_code,
      reason: i.reason,
    }),
  );

/** Write-off: the first call records the request, a different staff member's call confirms it. */
export const useWriteOff = () =>
  useLoansWrite((i: { id: string } & Pick<AdminLoanWriteOffBody, 'reason_code' | 'reason'>) =>
    api.postJson<AdminLoanData>(`loans/loans/${path(i.id)}/write-off`, {
      reason_code: i.reason_code,
      reason: i.reason,
    }),
  );

export const useVoucherDecision = () =>
  useLoansWrite((i: { id: string; decision: 'confirm' | 'reject'; amount?: string; reason: string }) =>
    api.postJson<AdminLoanRepaymentData>(`loans/repayments/${path(i.id)}/${i.decision}`, {
      ...(i.amount ? { amount: i.amount } : {}),
      reason: i.reason,
    }),
  );

export const useCreateProduct = () =>
  useLoansWrite((body: Omit<AdminLoanProductBody, 'lang' | 'rtoken'>) =>
    api.postJson<AdminLoanProductData>('loans/products', body),
  );

export const useProductState = () =>
  useLoansWrite((i: { id: string; action: 'open' | 'pause'; reason: string }) =>
    api.postJson<AdminLoanProductData>(`loans/products/${path(i.id)}/state`, {
      action: i.action,
      reason: i.reason,
    }),
  );

export const useCreateLender = () =>
  useLoansWrite((i: { name: string; source: { en: string; zh: string; ft: string }; reason: string }) =>
    api.postJson<AdminLenderData>('loans/lenders', i),
  );

export const useRequestFunding = () =>
  useLoansWrite((i: { lenderId: string; amount: string; reason: string }) =>
    api.postJson<AdminLenderFundingData>(`loans/lenders/${path(i.lenderId)}/requests`, {
      amount: i.amount,
      reason: i.reason,
    }),
  );

export const useFundingDecision = () =>
  useLoansWrite((i: { id: string; decision: 'approve' | 'reject'; reason: string }) =>
    api.postJson<AdminLenderFundingData>(`loans/funding-requests/${path(i.id)}/${i.decision}`, {
      reason: i.reason,
    }),
  );

export const useCloseReview = () =>
  useLoansWrite((i: { id: string; reason: string }) =>
    api.postJson<AdminScoreReviewData>(`loans/score-reviews/${path(i.id)}/close`, { reason: i.reason }),
  );

export const usePublishTable = () =>
  useLoansWrite((body: Omit<AdminScoreTableBody, 'lang' | 'rtoken'>) =>
    api.postJson<CreditTableData>('loans/score-table', body),
  );
