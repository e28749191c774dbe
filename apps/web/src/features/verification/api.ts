import type {
  SubmitAddressBody,
  SubmitAdvancedBody,
  SubmitPrimaryBody,
  TierView,
  VerificationData,
  VerificationTier,
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

type Body<T> = Omit<T, 'token' | 'lang' | 'rtoken'>;
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
export const useSubmitPrimary = () => useSubmit<Body<SubmitPrimaryBody>>('primary');
/** `POST web/submitAdvancedVerification`. */
export const useSubmitAdvanced = () => useSubmit<Body<SubmitAdvancedBody>>('advanced');
/** `POST web/submitAddressVerification`. */
export const useSubmitAddress = () => useSubmit<Body<SubmitAddressBody>>('address');
