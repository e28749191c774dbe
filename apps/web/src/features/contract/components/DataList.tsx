import { Box, Card, Group, Loader, ScrollArea, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export type Column<T> = {
  key: string;
  label: string;
  render: (row: T) => ReactNode;
  align?: 'right';
  /** Left out of the phone card (it is in the card's title line instead). */
  inTitle?: boolean;
  /**
   * A secondary column, shown in the table from 88em (1408 px) only, so that the table fits a 1280 px
   * screen without scrolling sideways; the phone card always shows it.
   */
  wide?: boolean;
  /** The cell may wrap (an action group), so the column can narrow. */
  wrap?: boolean;
};

/** Label and value, for the phone cards. */
export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0} style={{ minWidth: 0 }}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {children}
    </Stack>
  );
}

export function Empty({ text, loading }: { text: string; loading?: boolean }) {
  return (
    <Stack align="center" py="xl">
      {loading ? (
        <Loader size="sm" />
      ) : (
        <Text c="dimmed" size="sm">
          {text}
        </Text>
      )}
    </Stack>
  );
}

/**
 * A list of records: a table from 48em, cards on phones (title line, a grid of fields, actions).
 * `row` gives each row's test id and data attributes. The table takes the width it needs; `wide`
 * columns leave it below 1408 px and headers wrap, so from 1280 px it does not scroll sideways
 * (e2e/layout.e2e.ts); `minWidth` only for a table that must scroll on a tablet.
 */
export function DataList<T>({
  items,
  loading,
  empty,
  columns,
  rowKey,
  row,
  title,
  actions,
  minWidth,
  testId,
}: {
  items: readonly T[] | undefined;
  loading: boolean;
  empty: string;
  columns: Column<T>[];
  rowKey: (item: T) => string;
  row: (item: T) => Record<string, string>;
  title: (item: T) => ReactNode;
  actions?: (item: T) => ReactNode;
  minWidth?: number;
  testId: string;
}) {
  if (!items || items.length === 0) return <Empty text={empty} loading={loading && !items} />;
  return (
    <>
      <Box visibleFrom="sm">
        <ScrollArea type="auto">
          <Table striped highlightOnHover verticalSpacing={6} miw={minWidth} data-testid={`${testId}-table`}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((c) => (
                  <Table.Th key={c.key} ta={c.align} visibleFrom={c.wide ? 'xl' : undefined}>
                    {c.label}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((item) => (
                <Table.Tr key={rowKey(item)} {...row(item)}>
                  {columns.map((c) => (
                    <Table.Td
                      key={c.key}
                      ta={c.align}
                      visibleFrom={c.wide ? 'xl' : undefined}
                      style={{ whiteSpace: c.wrap ? 'normal' : 'nowrap' }}
                    >
                      {c.render(item)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      </Box>
      <Stack gap="xs" hiddenFrom="sm" data-testid={`${testId}-cards`}>
        {items.map((item) => {
          const attrs = row(item);
          return (
            <Card
              key={rowKey(item)}
              withBorder
              radius="md"
              padding="sm"
              {...attrs}
              data-testid={`${attrs['data-testid'] ?? testId}-card`}
            >
              <Group justify="space-between" mb={6} wrap="nowrap" gap={6}>
                {title(item)}
              </Group>
              <SimpleGrid cols={3} spacing={6} verticalSpacing={6}>
                {columns
                  .filter((c) => !c.inTitle)
                  .map((c) => (
                    <Field key={c.key} label={c.label}>
                      {c.render(item)}
                    </Field>
                  ))}
              </SimpleGrid>
              {actions ? (
                <Group gap={6} mt="sm" wrap="wrap">
                  {actions(item)}
                </Group>
              ) : null}
            </Card>
          );
        })}
      </Stack>
    </>
  );
}
