import type { CustomerProfile } from '@bourse/protocol';
import { Badge, Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../app/api.ts';
import { formatTime, useLang } from '../../app/i18n.ts';
import { ErrorNote, Figure } from '../../app/ui.tsx';

/** Find customers by email, phone, UID or id. */
export default function CustomersScreen() {
  const { t } = useTranslation();
  const lang = useLang();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const [text, setText] = useState(q);
  const search = useQuery({
    queryKey: ['searchCustomers', q],
    queryFn: () => api.get<{ list: CustomerProfile[] }>('searchCustomers', { q }),
    enabled: q !== '',
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setParams(text.trim() ? { q: text.trim() } : {});
  };
  const list = search.data?.list ?? [];
  return (
    <Stack>
      <Title order={2}>{t('customers.title')}</Title>
      <form onSubmit={submit}>
        <Group align="flex-end" wrap="nowrap">
          <TextInput
            style={{ flex: 1 }}
            label={t('customers.search')}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            maxLength={64}
            data-testid="customer-search"
          />
          <Button type="submit" loading={search.isFetching} data-testid="customer-search-submit">
            {t('customers.searchButton')}
          </Button>
        </Group>
      </form>
      <ErrorNote error={search.error} />
      {q !== '' && search.isSuccess && list.length === 0 ? (
        <Text c="dimmed">{t('customers.noResults')}</Text>
      ) : null}
      {list.length > 0 ? (
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover data-testid="customer-results">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('customers.uid')}</Table.Th>
                <Table.Th>{t('customers.email')}</Table.Th>
                <Table.Th>{t('customers.phone')}</Table.Th>
                <Table.Th>{t('common.status')}</Table.Th>
                <Table.Th>{t('customers.created')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((c) => (
                <Table.Tr key={c.customer_id}>
                  <Table.Td>
                    <Figure>{c.uid}</Figure>
                  </Table.Td>
                  <Table.Td>{c.email || '—'}</Table.Td>
                  <Table.Td>{c.phone || '—'}</Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Badge color={c.status === 'active' ? 'green' : 'red'} variant="light">
                        {t(`customers.status.${c.status}`)}
                      </Badge>
                      <Badge color={c.is_demo ? 'gray' : 'blue'} variant="outline">
                        {c.is_demo ? t('customers.demo') : t('customers.real')}
                      </Badge>
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Figure>{formatTime(c.created_at, lang)}</Figure>
                  </Table.Td>
                  <Table.Td>
                    <Button
                      component={Link}
                      to={`/customers/detail?id=${encodeURIComponent(c.customer_id)}`}
                      size="xs"
                      variant="light"
                      data-testid="customer-open"
                    >
                      {t('customers.open')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
    </Stack>
  );
}
