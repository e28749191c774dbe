import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { type ComponentType, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { hasPermission, useStaffMe } from '../../app/session.ts';
import { ErrorNote } from '../../app/ui.tsx';
import { type Column, DataTable, EnabledBadge, NoControlNote, Num, SavedNote } from './shared.tsx';

type Settings = { symbol: string; enabled: boolean; updated_at: number };

/** The status column every settings table has (after the instrument columns). */
export function useStatusColumn<T extends Settings>(): Column<T> {
  const { t } = useTranslation();
  return {
    key: 'status',
    label: t('derivatives.common.status'),
    render: (s) => <EnabledBadge enabled={s.enabled} />,
  };
}

/**
 * The scaffold of a per-instrument settings screen (contracts, options): title, the no-control note,
 * "applies to new" line, the table (phone: cards) with an updated-at column and, with
 * `markets.write`, an edit button per row; the edit dialog, and "saved" + a refetch after a change.
 */
export function SettingsScreen<T extends Settings>(props: {
  testId: string;
  title: string;
  note: string;
  query: { data?: { items: T[] }; error: unknown };
  queryKey: QueryKey;
  columns: Column<T>[];
  tableTestId: string;
  rowTestId: string;
  editTestId: string;
  minWidth?: number;
  showLoading?: boolean;
  Editor: ComponentType<{ settings: T; onClose: () => void; onSaved: () => void }>;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const me = useStaffMe();
  const client = useQueryClient();
  const [editing, setEditing] = useState<T | null>(null);
  const [saved, setSaved] = useState(false);
  const canEdit = hasPermission(me.data, 'markets.write');

  const columns: Column<T>[] = [
    ...props.columns,
    {
      key: 'updated',
      label: t('derivatives.common.updatedAt'),
      render: (s) => <Num>{formatTime(s.updated_at, lang)}</Num>,
    },
  ];
  if (canEdit)
    columns.push({
      key: 'actions',
      label: t('common.actions'),
      render: (s) => (
        <Button
          size="compact-sm"
          variant="default"
          onClick={() => {
            setSaved(false);
            setEditing(s);
          }}
          data-testid={props.editTestId}
        >
          {t('derivatives.common.edit')}
        </Button>
      ),
    });

  const { Editor } = props;
  return (
    <Stack data-testid={props.testId}>
      <Title order={2}>{props.title}</Title>
      <NoControlNote />
      <Text size="sm" c="dimmed">
        {props.note}
      </Text>
      <ErrorNote error={props.query.error} />
      <SavedNote show={saved} onClose={() => setSaved(false)} />
      {props.query.data ? (
        <DataTable
          rows={props.query.data.items}
          columns={columns}
          rowKey={(s) => s.symbol}
          rowAttrs={(s) => ({ 'data-symbol': s.symbol })}
          testId={props.tableTestId}
          rowTestId={props.rowTestId}
          minWidth={props.minWidth}
        />
      ) : props.showLoading ? (
        <Group>
          <Text size="sm" c="dimmed">
            {t('common.loading')}
          </Text>
        </Group>
      ) : null}
      {editing ? (
        <Editor
          key={editing.symbol}
          settings={editing}
          onClose={() => setEditing(null)}
          onSaved={async () => {
            setEditing(null);
            setSaved(true);
            await client.invalidateQueries({ queryKey: props.queryKey });
          }}
        />
      ) : null}
    </Stack>
  );
}
