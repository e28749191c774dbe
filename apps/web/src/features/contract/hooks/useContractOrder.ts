import type { ContractInstrumentData, ContractSide } from '@bourse/protocol';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api.ts';
import { useTicker } from '../../../lib/marketStore.ts';
import { useAssets } from '../../../shared/assets/getAssets.ts';
import { newContractOid, type QuoteInput, useContractQuote, useOpenContract } from '../api.ts';
import { contractOrderChecks, defaultLeverage, positive } from '../logic.ts';

export type ContractOrderType = 'market' | 'limit';

/** What the order form types: one state per field, as strings until the server reads them. */
function useContractOrderFields(instrument: ContractInstrumentData, initialSide: ContractSide) {
  const [side, setSide] = useState<ContractSide>(initialSide);
  const [type, setType] = useState<ContractOrderType>('market');
  const [price, setPrice] = useState('');
  const [lots, setLots] = useState('');
  const [leverage, setLeverage] = useState(() => defaultLeverage(instrument.leverage_choices));
  const [tp, setTp] = useState('');
  const [sl, setSl] = useState('');
  return {
    side,
    setSide,
    type,
    setType,
    price,
    setPrice,
    lots,
    setLots,
    leverage,
    setLeverage,
    tp,
    setTp,
    sl,
    setSl,
  };
}

export type ContractOrderFields = ReturnType<typeof useContractOrderFields>;

/** The server's preview of the typed order, asked for 300 ms after the last keystroke. */
function useContractPreview(quoteInput: QuoteInput | null) {
  const [debounced] = useDebouncedValue(quoteInput, 300);
  const quote = useContractQuote(debounced);
  const quoteRefusal = quote.error instanceof ApiError && quote.error.kind === 'refused' ? quote.error : null;
  const q = quoteInput && debounced ? quote.data : undefined;
  return { quoteRefusal, q };
}

/** Sends the order; on success names it, empties lots and TP/SL and calls `onDone`. */
function useContractSubmit(options: {
  instrument: ContractInstrumentData;
  fields: ContractOrderFields;
  ready: boolean;
  onDone?: (() => void) | undefined;
}) {
  const { t } = useTranslation('contract');
  const { instrument, fields, ready, onDone } = options;
  const { side, type, price, lots, leverage, tp, sl } = fields;
  const [refusal, setRefusal] = useState<ApiError | null>(null);
  const open = useOpenContract();
  const submit = () => {
    if (!ready) return;
    setRefusal(null);
    open.mutate(
      {
        symbol: instrument.symbol,
        side,
        type,
        ...(type === 'limit' ? { price: price.trim() } : {}),
        lots: lots.trim(),
        leverage,
        ...(tp.trim() ? { tp_price: tp.trim() } : {}),
        ...(sl.trim() ? { sl_price: sl.trim() } : {}),
        client_oid: newContractOid(),
      },
      {
        onSuccess: (result) => {
          const args = { side: t(`side.${side}`), lots: lots.trim(), symbol: instrument.symbol };
          notifications.show({
            color: 'teal',
            message:
              result.position || !result.order
                ? t('form.opened', args)
                : t('form.placed', { ...args, price: result.order.price }),
          });
          fields.setLots('');
          fields.setTp('');
          fields.setSl('');
          onDone?.();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.kind === 'refused') setRefusal(error);
        },
      },
    );
  };
  return { submit, pending: open.isPending, refusal };
}

/**
 * The contract order form's state: the fields, the rules they break while typing, the server's preview,
 * the customer's contract USDT, and `submit` (which shows the server's refusal in `refusal`).
 */
export function useContractOrder({
  instrument,
  loggedIn,
  initialSide,
  onDone,
}: {
  instrument: ContractInstrumentData;
  loggedIn: boolean;
  initialSide: ContractSide;
  onDone?: (() => void) | undefined;
}) {
  const { t } = useTranslation('contract');
  const ticker = useTicker(instrument.symbol);
  const fields = useContractOrderFields(instrument, initialSide);
  const { side, type, price, lots, leverage, tp, sl } = fields;
  const assets = useAssets(loggedIn ? 'contract' : undefined);
  const contractUsdt = assets.data?.accounts
    .find((a) => a.type === 'contract')
    ?.rows.find((r) => r.currency === 'USDT')?.available;
  const checks = contractOrderChecks({ instrument, side, type, price, lots, tp, sl, last: ticker?.last });
  const { reference, sideBreaks, ready } = checks;
  const quoteInput: QuoteInput | null =
    loggedIn && checks.quotable
      ? {
          symbol: instrument.symbol,
          side,
          lots: lots.trim(),
          leverage,
          ...(type === 'limit' ? { price: price.trim() } : {}),
        }
      : null;
  const { quoteRefusal, q } = useContractPreview(quoteInput);
  const { submit, pending, refusal } = useContractSubmit({ instrument, fields, ready, onDone });

  const tpSlHint = (field: 'tp' | 'sl') => {
    const b = sideBreaks.find((x) => x.startsWith(field));
    if (!b) return undefined;
    if (b === 'tpInvalid' || b === 'slInvalid') return t(`form.hint.${b}`);
    return t(`form.hint.${field}Side${side === 'buy' ? 'Buy' : 'Sell'}`, { price: reference ?? '' });
  };
  const noFunds = assets.data !== undefined && !positive(contractUsdt);

  return {
    fields,
    lotsProblem: checks.lotsProblem,
    priceProblem: checks.priceProblem,
    tpSlHint,
    ready,
    quoteInput,
    quoteRefusal,
    q,
    submit,
    pending,
    refusal,
    contractUsdt,
    noFunds,
  };
}

export type ContractOrder = ReturnType<typeof useContractOrder>;
