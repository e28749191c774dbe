import { formatPercent } from '@bourse/money';
import { type DerivativesBook, type Lang, LOCALE_OF } from '@bourse/protocol';
import { Num as Figures } from '@bourse/ui';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  SegmentedControl,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { ErrorNote } from '../../app/ui.tsx';

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

/** A signed USDT figure: up green, down red (the customers' side, as the server sent it), every digit kept. */
export function Signed({ value }: { value: string | null | undefined }) {
  return <Figures size="sm" value={value} trend="auto" empty="—" />;
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

/**
 * The state of a dialog that saves with a required reason: `submit(ready, save, onSaved)` marks the
 * form as tried, stops unless `ready` and the reason are fine, and keeps a refusal in the dialog.
 */
export function useReasonForm() {
  const [reason, setReason] = useState('');
  const [tried, setTried] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (ready: boolean, save: () => Promise<unknown>, onSaved: () => void) => {
    setTried(true);
    if (!ready || !reasonOk(reason)) return;
    setBusy(true);
    setError(null);
    try {
      await save();
      onSaved();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return { reason, setReason, tried, error, busy, submit };
}

export type ReasonForm = ReturnType<typeof useReasonForm>;

/**
 * The tail of every derivatives edit dialog: the reason, an optional "nothing changed" line, the
 * refusal (in the reader's language) and the cancel / save buttons.
 */
export function ReasonFooter(props: {
  form: ReasonForm;
  onCancel: () => void;
  onSave: () => void;
  saveTestId: string;
  unchanged?: boolean;
  unchangedTestId?: string;
}) {
  const { t } = useTranslation();
  const { form } = props;
  return (
    <>
      <ReasonInput
        value={form.reason}
        onChange={form.setReason}
        error={form.tried && !reasonOk(form.reason)}
      />
      {props.unchanged ? (
        <Text size="sm" c="orange" data-testid={props.unchangedTestId}>
          {t('derivatives.common.unchanged')}
        </Text>
      ) : null}
      <ErrorNote error={form.error} />
      <Group justify="flex-end">
        <Button variant="default" onClick={props.onCancel}>
          {t('common.cancel')}
        </Button>
        <Button loading={form.busy} onClick={props.onSave} data-testid={props.saveTestId}>
          {t('derivatives.common.save')}
        </Button>
      </Group>
    </>
  );
}

/**
 * The frame of an instrument's settings dialog (contracts, options): title, the "applies to new"
 * note and the on/off switch, then the dialog's own fields and its ReasonFooter.
 */
export function SettingsDialog(props: {
  title: string;
  note: string;
  enabled: boolean;
  onEnabled: (enabled: boolean) => void;
  enabledTestId: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened onClose={props.onClose} title={props.title} size="lg" centered>
      <Stack>
        <Alert color="blue" variant="light">
          <Text size="sm">{props.note}</Text>
        </Alert>
        <Switch
          checked={props.enabled}
          onChange={(e) => props.onEnabled(e.currentTarget.checked)}
          label={props.enabled ? t('derivatives.common.enabled') : t('derivatives.common.disabled')}
          data-testid={props.enabledTestId}
        />
        {props.children}
      </Stack>
    </Modal>
  );
}

/** "Saved" after a change, closable. */
export function SavedNote(props: { show: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  if (!props.show) return null;
  return (
    <Alert color="teal" variant="light" withCloseButton onClose={props.onClose} data-testid="saved-note">
      {t('derivatives.common.saved')}
    </Alert>
  );
}

/** On / off badge of an instrument's settings. */
export function EnabledBadge({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge color={enabled ? 'teal' : 'gray'} variant="light" miw="max-content">
      {enabled ? t('derivatives.common.enabled') : t('derivatives.common.disabled')}
    </Badge>
  );
}

export type Column<T> = {
  key: string;
  label: ReactNode;
  render: (row: T) => ReactNode;
  align?: 'right';
  /**
   * A secondary column: in the table from 88em (1408 px) only, so that the table fits beside the
   * navigation at 1280 px without scrolling sideways; phone cards and edit dialogs still show it.
   */
  wide?: boolean;
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
    <Table.ScrollContainer minWidth={props.minWidth ?? 0}>
      <Table striped highlightOnHover data-testid={props.testId}>
        <Table.Thead>
          <Table.Tr>
            {props.columns.map((c) => (
              <Table.Th key={c.key} ta={c.align} visibleFrom={c.wide ? 'xl' : undefined}>
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
                <Table.Td key={c.key} ta={c.align} visibleFrom={c.wide ? 'xl' : undefined}>
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
                <Table.Th
                  key={props.columns[i]?.key ?? i}
                  ta={props.columns[i]?.align}
                  visibleFrom={props.columns[i]?.wide ? 'xl' : undefined}
                >
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

/** A figure or a dash; a decimal keeps every digit it has, grouped in the reader's locale (@bourse/ui). */
export function Num({ children }: { children: string | number | null | undefined }) {
  // A count arrives as a number: its decimal text keeps it exact and unpadded, as before.
  const value = typeof children === 'number' ? String(children) : children;
  return <Figures size="sm" value={value} empty="—" />;
}

/** A rate stored as a fraction, shown as a percent with every digit it has ("0.0001" → "0.01%"). */
export function percentText(rate: string | null | undefined, lang: Lang): string {
  if (rate === null || rate === undefined) return '—';
  return formatPercent(rate, { fraction: true, digits: 'all', locale: LOCALE_OF[lang] });
}
