import type { WithdrawalView } from '@bourse/protocol';
import { Anchor, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const FAIL_REASONS = ['network_rejected', 'destination_rejected', 'provider_error', 'bank_returned'] as const;

/** How a payout ended: the transaction hash with its explorer link, the bank reference, or why it failed. */
export function PayoutDetail({ row }: { row: WithdrawalView }) {
  const { t } = useTranslation('withdraw');
  if (row.state === 'failed' && row.fail_reason) {
    const code = FAIL_REASONS.find((r) => r === row.fail_reason);
    return (
      <Text size="xs" c="red" data-testid="payout-failed">
        {t('records.payout.failed', {
          reason: code ? t(`records.payout.failReason.${code}`) : row.fail_reason,
        })}{' '}
        {t('records.payout.fundsBack')}
      </Text>
    );
  }
  if (row.tx_hash) {
    const short = `${row.tx_hash.slice(0, 10)}…${row.tx_hash.slice(-6)}`;
    return (
      <Text size="xs" c="dimmed" data-testid="payout-tx">
        {t('records.payout.txHash')}{' '}
        {row.explorer_url ? (
          <Anchor
            href={row.explorer_url}
            target="_blank"
            rel="noopener noreferrer"
            size="xs"
            title={`${t('records.payout.viewTx')}: ${row.tx_hash}`}
            ff="monospace"
          >
            {short}
          </Anchor>
        ) : (
          <Text span size="xs" ff="monospace" title={row.tx_hash}>
            {short}
          </Text>
        )}
      </Text>
    );
  }
  if (row.bank_reference) {
    return (
      <Text size="xs" c="dimmed" data-testid="payout-bank-reference">
        {t('records.payout.bankReference', { reference: row.bank_reference })}
      </Text>
    );
  }
  return null;
}
