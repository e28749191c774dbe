import type { FundModelData } from '@bourse/protocol';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api.ts';
import { newClientOid, useBuyEtf } from '../api/orders.ts';
import { usePreviewEtf } from '../api/previewEtf.ts';
import { isAmountText } from '../logic.ts';

export const ORDERS_PATH = { balanced: '/etf_wdtg', low_risk: '/etflow_wdtg' } as const;

const refusalOf = (error: unknown) =>
  error instanceof ApiError && error.kind === 'refused' ? error.message : null;

/**
 * The purchase form's state: the typed amount, the server's preview for it (debounced), the confirm
 * step, and the purchase — one client_oid per confirmed order, so a retried request is the same order.
 */
export function useBuyForm(model: FundModelData) {
  const { t } = useTranslation('funds');
  const navigate = useNavigate();
  const [amount, setAmount] = useState(model.min_amount);
  const [debounced] = useDebouncedValue(amount.trim(), 300);
  const valid = isAmountText(debounced);
  const preview = usePreviewEtf(model.model_id, valid ? debounced : '');
  const [confirming, setConfirming] = useState(false);
  const [clientOid, setClientOid] = useState(newClientOid);
  const buy = useBuyEtf();
  const refused = refusalOf(preview.error);
  const submit = () =>
    buy.mutate(
      { model_id: model.model_id, amount: debounced, client_oid: clientOid },
      {
        onSuccess: () => {
          setConfirming(false);
          setClientOid(newClientOid());
          notifications.show({ color: 'green', message: t('confirm.done') });
          void navigate(ORDERS_PATH[model.model_id]);
        },
      },
    );
  return {
    amount,
    setAmount,
    typedBad: amount.trim() !== '' && !isAmountText(amount),
    preview,
    refused,
    canReview: valid && Boolean(preview.data) && !preview.isPlaceholderData && !refused,
    confirming,
    review: () => {
      buy.reset();
      setConfirming(true);
    },
    close: () => setConfirming(false),
    submit,
    pending: buy.isPending,
    buyError: refusalOf(buy.error),
  };
}

export type BuyFormState = ReturnType<typeof useBuyForm>;
