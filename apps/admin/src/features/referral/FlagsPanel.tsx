import type { AdminReferralFlagData } from '@bourse/protocol';
import { Button, Pagination, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { ErrorNote, Figure, ReasonDialog } from '../../app/ui.tsx';
import { type FlagState, PAGE_SIZE, useClearFlag, useReferralFlags } from './api.ts';

/** Linked-account flags: open ones exclude a pair's income until cleared with a reason (audited). */
export function FlagsPanel({ canWrite }: { canWrite: boolean }) {
  const { t } = useTranslation('adminReferral');
  const lang = useLang();
  const [state, setState] = useState<FlagState>('open');
  const [page, setPage] = useState(1);
  const [clearing, setClearing] = useState<AdminReferralFlagData | null>(null);
  const flags = useReferralFlags(state, page);
  const clear = useClearFlag();
  return (
    <Stack gap="md" data-testid="referral-flags">
      <SegmentedControl
        w="fit-content"
        value={state}
        onChange={(v) => {
          setState(v as FlagState);
          setPage(1);
        }}
        data={[
          { value: 'open', label: t('flags.open') },
          { value: 'cleared', label: t('flags.cleared') },
          { value: 'all', label: t('flags.all') },
        ]}
        data-testid="referral-flags-state"
      />
      <ErrorNote error={flags.error} />
      {flags.data && flags.data.items.length === 0 ? <Text c="dimmed">{t('common.empty')}</Text> : null}
      {flags.data && flags.data.items.length > 0 ? (
        <Table.ScrollContainer minWidth={900}>
          <Table verticalSpacing="xs" fz="sm" data-testid="referral-flags-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('flags.flagged')}</Table.Th>
                <Table.Th>{t('flags.pair')}</Table.Th>
                <Table.Th>{t('flags.reason')}</Table.Th>
                <Table.Th>{t('flags.detail')}</Table.Th>
                <Table.Th>{t('flags.clearedBy')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {flags.data.items.map((f) => (
                <Table.Tr key={f.id} data-testid="referral-flag-row">
                  <Table.Td>
                    <Figure>{formatTime(f.flagged_at, lang)}</Figure>
                  </Table.Td>
                  <Table.Td>
                    <Figure>
                      {f.inviter_uid} → {f.invitee_uid}
                    </Figure>
                  </Table.Td>
                  <Table.Td>{t(`reasons.${f.reason}`)}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{f.detail}</Table.Td>
                  <Table.Td>
                    {f.cleared_at ? (
                      <Text size="sm">
                        {formatTime(f.cleared_at, lang)} · {f.clear_reason}
                      </Text>
                    ) : (
                      '—'
                    )}
                  </Table.Td>
                  <Table.Td>
                    {canWrite && !f.cleared_at ? (
                      <Button
                        size="xs"
                        variant="light"
                        onClick={() => setClearing(f)}
                        data-testid="referral-flag-clear"
                      >
                        {t('flags.clear')}
                      </Button>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {flags.data && flags.data.total > PAGE_SIZE ? (
        <Pagination value={page} onChange={setPage} total={Math.ceil(flags.data.total / PAGE_SIZE)} />
      ) : null}
      <ReasonDialog
        opened={clearing !== null}
        title={t('flags.clearTitle', { id: clearing?.id ?? '' })}
        text={t('flags.clearLead')}
        confirmLabel={t('flags.confirm')}
        onClose={() => setClearing(null)}
        onSubmit={async (reason) => {
          if (!clearing) return;
          await clear.mutateAsync({ id: clearing.id, reason });
          setClearing(null);
        }}
      />
    </Stack>
  );
}
