import type { AdminCategoryData, ContentTexts } from '@bourse/protocol';
import { Button, Group, NumberInput, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorNote, ReasonDialog } from '../../app/ui.tsx';
import { deleteCategory, KEYS, saveCategory, useCategories } from './api.ts';

const LANGS = ['en', 'zh', 'ft'] as const;
type Form = { mode: 'create' | 'update'; id: string; name: ContentTexts; sort: number };
const BLANK: Form = { mode: 'create', id: '', name: { en: '', zh: '', ft: '' }, sort: 0 };

/** Help categories: names in three languages and their order (audited). */
export function CategoriesTab() {
  const { t } = useTranslation('adminContent');
  const client = useQueryClient();
  const categories = useCategories();
  const [form, setForm] = useState<Form>(BLANK);
  const [error, setError] = useState<unknown>(null);
  const [removing, setRemoving] = useState<AdminCategoryData | null>(null);
  const edit = (c: AdminCategoryData) => setForm({ mode: 'update', id: c.id, name: c.name, sort: c.sort });
  const save = async () => {
    setError(null);
    try {
      await saveCategory(form.mode, { id: form.id, name: form.name, sort: form.sort });
      setForm(BLANK);
      await client.invalidateQueries({ queryKey: KEYS.categories });
    } catch (e) {
      setError(e);
    }
  };
  return (
    <Stack>
      <ErrorNote error={categories.error} />
      <Table data-testid="category-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('categories.id')}</Table.Th>
            {LANGS.map((lang) => (
              <Table.Th key={lang}>{t(`lang.${lang}`)}</Table.Th>
            ))}
            <Table.Th>{t('categories.sort')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(categories.data ?? []).map((c) => (
            <Table.Tr key={c.id} data-testid="category-row" data-id={c.id}>
              <Table.Td>{c.id}</Table.Td>
              {LANGS.map((lang) => (
                <Table.Td key={lang}>{c.name[lang]}</Table.Td>
              ))}
              <Table.Td>{c.sort}</Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Button size="xs" variant="light" onClick={() => edit(c)} data-testid="category-edit">
                    {t('edit')}
                  </Button>
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    onClick={() => setRemoving(c)}
                    data-testid="category-delete"
                  >
                    {t('categories.delete')}
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {categories.data?.length === 0 ? (
        <Text c="dimmed" data-testid="category-empty">
          {t('categories.empty')}
        </Text>
      ) : null}
      <ReasonDialog
        opened={removing !== null}
        title={t('categories.deleteTitle', { id: removing?.id ?? '' })}
        text={t('categories.deleteText')}
        confirmLabel={t('categories.delete')}
        danger
        onClose={() => setRemoving(null)}
        onSubmit={async (reason) => {
          await deleteCategory({ id: removing?.id ?? '', reason: reason.trim() });
          await client.invalidateQueries({ queryKey: KEYS.categories });
        }}
      />
      <Paper withBorder p="md" data-testid="category-form">
        <Stack gap="xs">
          <Group grow align="flex-end">
            <TextInput
              label={t('categories.id')}
              value={form.id}
              disabled={form.mode === 'update'}
              maxLength={32}
              onChange={(e) => setForm({ ...form, id: e.currentTarget.value })}
              data-testid="category-id"
            />
            {LANGS.map((lang) => (
              <TextInput
                key={lang}
                label={`${t('categories.name')} · ${t(`lang.${lang}`)}`}
                value={form.name[lang]}
                maxLength={40}
                onChange={(e) => setForm({ ...form, name: { ...form.name, [lang]: e.currentTarget.value } })}
                data-testid={`category-name-${lang}`}
              />
            ))}
            <NumberInput
              label={t('categories.sort')}
              value={form.sort}
              min={0}
              allowDecimal={false}
              onChange={(v) => setForm({ ...form, sort: typeof v === 'number' ? v : 0 })}
            />
          </Group>
          <ErrorNote error={error} />
          <Group justify="flex-end">
            {form.mode === 'update' ? (
              <Button variant="default" onClick={() => setForm(BLANK)}>
                {t('form.cancel')}
              </Button>
            ) : null}
            <Button onClick={save} data-testid="category-save">
              {form.mode === 'create' ? t('categories.create') : t('categories.save')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}
