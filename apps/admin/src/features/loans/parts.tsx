import type { AdminLoanData, LoanStatus } from '@bourse/protocol';
import { Alert, Badge, Button, Group, Table } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hasPermission, useStaffMe } from '../../app/session.ts';
import { Amount, ErrorNote } from '../../app/ui.tsx';
import { documentLink } from './api.ts';

export const READ_PERMISSION = 'loans.read';
export const WRITE_PERMISSION = 'loans.write';
export const DECIDE_PERMISSION = 'loans.decide';

const STATE_COLORS: Record<LoanStatus, string> = {
  unreviewed: 'yellow',
  disbursed: 'blue',
  repaying: 'teal',
  cleared: 'green',
  overdue: 'red',
  rejected: 'gray',
  withdrawn: 'dark',
  re_applied: 'grape',
  written_off: 'pink',
};

export function LoanStateBadge({ state }: { state: LoanStatus }) {
  const { t } = useTranslation('adminLoans');
  return (
    <Badge color={STATE_COLORS[state]} variant="light" miw="max-content" data-state={state}>
      {t(`state.${state}`)}
    </Badge>
  );
}

/** A USDT amount through the shared number component. */
export function Usdt({ value, suffix = false }: { value: string | null | undefined; suffix?: boolean }) {
  return <Amount value={value} currency="USDT" suffix={suffix} />;
}

/** The signed-in staff member's id and what they may do on the loan screens. */
export function useLoanStaff(): { staffId: string | null; canWrite: boolean; canDecide: boolean } {
  const me = useStaffMe();
  return {
    staffId: me.data?.staff_id ?? null,
    canWrite: hasPermission(me.data, WRITE_PERMISSION),
    canDecide: hasPermission(me.data, DECIDE_PERMISSION),
  };
}

/** What a staff member without the permission sees instead of the controls. */
export function NoPermission({ permission }: { permission: string }) {
  const { t } = useTranslation('adminLoans');
  return (
    <Alert color="gray" variant="light" p="xs" data-testid="loans-no-permission" data-permission={permission}>
      {t('common.noPermission', { permission })}
    </Alert>
  );
}

/** Label–value rows of a detail section. */
export function Facts({ rows, testId }: { rows: [string, ReactNode][]; testId?: string }) {
  return (
    <Table fz="sm" verticalSpacing={4} withRowBorders={false} data-testid={testId}>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Td c="dimmed" w="45%" style={{ verticalAlign: 'top' }}>
              {label}
            </Table.Td>
            <Table.Td>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** "Alice Chan (UID 80012345)". */
export function customerText(loan: Pick<AdminLoanData, 'applicant'>): string {
  return `${loan.applicant.name} (UID ${loan.applicant.uid})`;
}

/**
 * Buttons opening a loan's proofs or voucher through the server's 5-minute link (each link is
 * audited server-side: the staff member asks for it by clicking, never on render).
 */
export function DocumentLinks({ loanId, fileIds }: { loanId: string; fileIds: readonly string[] }) {
  const { t } = useTranslation('adminLoans');
  const [error, setError] = useState<unknown>(null);
  if (fileIds.length === 0) return <span>{t('common.none')}</span>;
  return (
    <>
      <Group gap={4}>
        {fileIds.map((fileId, i) => (
          <Button
            key={fileId}
            size="compact-xs"
            variant="light"
            data-testid="loans-document"
            data-file={fileId}
            onClick={async () => {
              setError(null);
              try {
                const link = await documentLink(loanId, fileId);
                window.open(link.url, '_blank', 'noopener');
              } catch (e) {
                setError(e);
              }
            }}
          >
            {t('common.document', { n: i + 1 })}
          </Button>
        ))}
      </Group>
      <ErrorNote error={error} />
    </>
  );
}
