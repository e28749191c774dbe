import type { DerivativesBook } from '@bourse/protocol';
import { Alert, Card, Group, SegmentedControl, Stack, Table, Text, Textarea } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { Figure } from '../../app/ui.tsx';
import { signOf } from './decimals.ts';

/** The calm reminder on every derivatives screen: nothing here steers a price or a result. */
export function NoControlNote() {
  const { t } = useTranslation();
  return (
    <Alert color="gray" variant="light" data-testid="no-control-note">
      <Text size="sm">{t('derivatives.noControl')}</Text>
    </Alert>
  );
}

export function BookToggle(props: { value: DerivativesBook; onChange: (book: DerivativesBook) => void }) {
  const { t } = useTranslation();
  return (
    <SegmentedControl
      value={props.value}
      onChange={(v) => props.onChange(v as DerivativesBook)}
      aria-label={t('derivatives.book.label')}
      data={[
        { value: 'real', label: t('derivatives.book.real') },
        { value: 'demo', label: t('derivatives.book.demo') },
      ]}
      data-testid="book-toggle"
    />
  );
}

/** A signed USDT figure: green above zero, red below (the customers' side, as the server sent it). */
export function Signed({ value }: { value: string | null | undefined }) {
  const sign = signOf(value);
  return (
    <Text
      component="span"
      size="sm"
      c={sign > 0 ? 'teal' : sign < 0 ? 'red' : undefined}
      style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
    >
      {value ?? '—'}
    </Text>
  );
}

/** "Refreshes every 5 s · last 12:00:05" under auto-refreshing tables. */
export function RefreshedNote({ updatedAt, seconds }: { updatedAt: number; seconds: number }) {
  const { t } = useTranslation();
  const lang = useLang();
  return (
    <Text size="xs" c="dimmed" data-testid="refreshed-note">
      {t('derivatives.common.autoRefresh', {
        seconds,
        time: updatedAt ? formatTime(updatedAt, lang) : '—',
      })}
    </Text>
  );
}

/** The required reason of every change (3–500 characters, recorded in the audit log). */
export function ReasonInput(props: { value: string; onChange: (v: string) => void; error?: boolean }) {
  const { t } = useTranslation();
  return (
    <Textarea
      label={t('common.reason')}
      description={t('common.reasonHint')}
      value={props.value}
      onChange={(e) => props.onChange(e.currentTarget.value)}
      error={props.error ? t('derivatives.common.reasonShort') : undefined}
      required
      autosize
      minRows={2}
      maxLength={500}
      data-testid="reason-input"
    />
  );
}

export function reasonOk(reason: string): boolean {
  return reason.trim().length >= 3;
}

export type Column<T> = {
  key: string;
  label: ReactNode;
  render: (row: T) => ReactNode;
  align?: 'right';
};

/**
 * A table on wider screens; on phones each row becomes a card of label/value lines (the first
 * column is the card's heading), so nothing needs sideways scrolling.
 */
export function DataTable<T>(props: {
  rows: readonly T[];
  columns: readonly Column<T>[];
  rowKey: (row: T) => string;
  testId: string;
  rowTestId: string;
  rowAttrs?: (row: T) => Record<string, string>;
  minWidth?: number;
  footer?: readonly ReactNode[];
}) {
  const { t } = useTranslation();
  const phone = useMediaQuery('(max-width: 48em)');
  if (props.rows.length === 0)
    return (
      <Text size="sm" c="dimmed" data-testid={props.testId} data-empty="true">
        {t('derivatives.common.empty')}
      </Text>
    );
  if (phone) {
    const [head, ...rest] = props.columns;
    return (
      <Stack gap="sm" data-testid={props.testId}>
        {props.rows.map((row) => (
          <Card
            key={props.rowKey(row)}
            withBorder
            padding="sm"
            data-testid={props.rowTestId}
            {...(props.rowAttrs?.(row) ?? {})}
          >
            {head ? <div style={{ marginBottom: 6 }}>{head.render(row)}</div> : null}
            <Stack gap={4}>
              {rest.map((c) => (
                <Group key={c.key} justify="space-between" wrap="nowrap" gap="md" align="flex-start">
                  <Text size="xs" c="dimmed" style={{ flexShrink: 0, maxWidth: '45%' }}>
                    {c.label}
                  </Text>
                  <div style={{ textAlign: 'right', minWidth: 0 }}>{c.render(row)}</div>
                </Group>
              ))}
            </Stack>
          </Card>
        ))}
        {props.footer ? (
          <Card withBorder padding="sm" bg="var(--mantine-color-gray-0)">
            <Stack gap={4}>
              {props.footer.map((cell, i) =>
                cell === '' ? null : (
                  <Group key={props.columns[i]?.key ?? i} justify="space-between" wrap="nowrap">
                    {i === 0 ? (
                      <Text size="sm" fw={600}>
                        {cell}
                      </Text>
                    ) : (
                      <>
                        <Text size="xs" c="dimmed">
                          {props.columns[i]?.label}
                        </Text>
                        <div>{cell}</div>
                      </>
                    )}
                  </Group>
                ),
              )}
            </Stack>
          </Card>
        ) : null}
      </Stack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={props.minWidth ?? 900}>
      <Table striped highlightOnHover data-testid={props.testId}>
        <Table.Thead>
          <Table.Tr>
            {props.columns.map((c) => (
              <Table.Th key={c.key} ta={c.align}>
                {c.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {props.rows.map((row) => (
            <Table.Tr
              key={props.rowKey(row)}
              data-testid={props.rowTestId}
              {...(props.rowAttrs?.(row) ?? {})}
            >
              {props.columns.map((c) => (
                <Table.Td key={c.key} ta={c.align}>
                  {c.render(row)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
        {props.footer ? (
          <Table.Tfoot>
            <Table.Tr>
              {props.footer.map((cell, i) => (
                <Table.Th key={props.columns[i]?.key ?? i} ta={props.columns[i]?.align}>
                  {cell}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Tfoot>
        ) : null}
      </Table>
    </Table.ScrollContainer>
  );
}

/** A figure or a dash. */
export function Num({ children }: { children: string | number | null | undefined }) {
  return <Figure>{children === null || children === undefined || children === '' ? '—' : children}</Figure>;
}
