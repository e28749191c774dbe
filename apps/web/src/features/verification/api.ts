import type {
  IdType,
  IncomeBand,
  InvestmentBand,
  Occupation,
  TierView,
  VerificationData,
  VerificationTier,
  WealthSource,
} from '@bourse/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { infoKey } from '../../api/info.ts';
import { apiGet, apiPost, type Params } from '../../lib/api.ts';
import { useToken } from '../../lib/session.ts';

/** `GET web/getVerification`: every tier's state, what each unlocks, what deposit and withdrawal need. */
export function useVerification() {
  const token = useToken();
  return useQuery({
    queryKey: ['web/getVerification', token],
    queryFn: () => apiGet<VerificationData>('web/getVerification'),
    enabled: token !== null,
  });
}

/*
 * The bodies as the forms send them. (The protocol's `Static<typeof Submit…Body>` cannot serve here:
 * its unions of literals are built from arrays, so TypeBox types those fields as `never`.)
 */
type FileFields<K extends string> = { [F in K]?: string };
export type PrimaryBody = {
  real_name: string;
  id_type: IdType;
  id_number: string;
  /** Only from an account with no nationality on record (chosen once). */
  country?: string;
} & FileFields<'front_file_id' | 'back_file_id' | 'handheld_file_id'>;
export type AdvancedBody = {
  occupation: Occupation;
  monthly_income: IncomeBand;
  source_of_wealth: WealthSource;
  wealth_note?: string;
  expected_investment: InvestmentBand;
} & FileFields<'asset_house_file_id' | 'asset_bank_file_id' | 'asset_stock_file_id'>;
export type AddressBody = { residential_address: string } & FileFields<'utility_bill_file_id'>;

type Answer = TierView<VerificationTier>;

const CALL: Record<VerificationTier, string> = {
  primary: 'web/submitPrimaryVerification',
  advanced: 'web/submitAdvancedVerification',
  address: 'web/submitAddressVerification',
};

/** Drops the fields left out (an unflagged document in a revision keeps the one under review). */
function defined(body: Record<string, string | undefined>): Params {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined && v !== ''));
}

function useSubmit<T extends Record<string, string | undefined>>(tier: VerificationTier) {
  const client = useQueryClient();
  const token = useToken();
  return useMutation({
    mutationFn: (body: T) => apiPost<Answer>(CALL[tier], defined(body)),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['web/getVerification'] });
      void client.invalidateQueries({ queryKey: infoKey(token) });
    },
  });
}

/** `POST web/submitPrimaryVerification`. */
export const useSubmitPrimary = () => useSubmit<PrimaryBody>('primary');
/** `POST web/submitAdvancedVerification`. */
export const useSubmitAdvanced = () => useSubmit<AdvancedBody>('advanced');
/** `POST web/submitAddressVerification`. */
export const useSubmitAddress = () => useSubmit<AddressBody>('address');
