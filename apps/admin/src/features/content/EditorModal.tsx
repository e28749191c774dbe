import { type AdminContentData, CONTENT_KINDS, type ContentKind } from '@bourse/protocol';
import {
  Button,
  Group,
  Modal,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Tabs,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorNote } from '../../app/ui.tsx';
import { type ArticleDraft, createArticle, updateArticle, useCategories } from './api.ts';
import { Preview } from './Preview.tsx';

const LANGS = ['en', 'zh', 'ft'] as const;
const EMPTY = { en: '', zh: '', ft: '' };

export function draftOf(row: AdminContentData | null): ArticleDraft {
  if (!row)
    return {
      kind: 'help',
      category_id: null,
      sort: 0,
      link: null,
      image_url: null,
      title: EMPTY,
      summary: EMPTY,
      body: EMPTY,
    };
  return {
    kind: row.kind,
    category_id: row.category_id,
    sort: row.sort,
    link: row.link,
    image_url: row.image_url,
    title: row.title,
    summary: row.summary,
    body: row.body,
  };
}

/** One language's title, summary and markdown body beside its live preview. */
function LanguageFields(props: {
  lang: (typeof LANGS)[number];
  draft: ArticleDraft;
  set: (field: 'title' | 'summary' | 'body', value: string) => void;
}) {
  const { t } = useTranslation('adminContent');
  const { lang, draft } = props;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" pt="sm">
      <Stack gap="xs">
        <TextInput
          label={t('form.title')}
          value={draft.title[lang]}
          maxLength={120}
          required
          onChange={(e) => props.set('title', e.currentTarget.value)}
          data-testid={`content-title-${lang}`}
        />
        <TextInput
          label={t('form.summary')}
          value={draft.summary[lang]}
          maxLength={300}
          onChange={(e) => props.set('summary', e.currentTarget.value)}
          data-testid={`content-summary-${lang}`}
        />
        <Textarea
          label={t('form.body')}
          description={t('form.markdownHint')}
          value={draft.body[lang]}
          autosize
          minRows={10}
          maxRows={24}
          required
          onChange={(e) => props.set('body', e.currentTarget.value)}
          data-testid={`content-body-${lang}`}
        />
      </Stack>
      <Preview markdown={draft.body[lang]} />
    </SimpleGrid>
  );
}

/** Create or edit an entry in three languages (saved as a draft or in place; publishing is its own step). */
export function EditorModal(props: {
  row: AdminContentData | null;
  opened: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('adminContent');
  const categories = useCategories();
  const [draft, setDraft] = useState<ArticleDraft>(() => draftOf(props.row));
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const set = (field: 'title' | 'summary' | 'body', lang: (typeof LANGS)[number], value: string) =>
    setDraft((d) => ({ ...d, [field]: { ...d[field], [lang]: value } }));
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      const body = { ...draft, category_id: draft.kind === 'help' ? draft.category_id : null };
      await (props.row ? updateArticle(props.row.id, body) : createArticle(body));
      props.onSaved();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={props.row ? t('form.editTitle') : t('form.createTitle')}
      size="90%"
      data-testid="content-editor"
    >
      <Stack>
        <Group grow align="flex-start">
          <Select
            label={t('form.kind')}
            value={draft.kind}
            data={CONTENT_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))}
            onChange={(v) => v && setDraft((d) => ({ ...d, kind: v as ContentKind }))}
            allowDeselect={false}
            data-testid="content-kind"
          />
          {draft.kind === 'help' ? (
            <Select
              label={t('form.category')}
              value={draft.category_id}
              data={(categories.data ?? []).map((c) => ({
                value: c.id,
                label: `${c.name.en} · ${c.name.zh}`,
              }))}
              onChange={(v) => setDraft((d) => ({ ...d, category_id: v }))}
              required
              data-testid="content-category"
            />
          ) : null}
          <NumberInput
            label={t('form.sort')}
            value={draft.sort}
            min={0}
            max={1_000_000}
            allowDecimal={false}
            onChange={(v) => setDraft((d) => ({ ...d, sort: typeof v === 'number' ? v : 0 }))}
          />
        </Group>
        <Group grow>
          <TextInput
            label={t('form.link')}
            value={draft.link ?? ''}
            maxLength={500}
            onChange={(e) => setDraft((d) => ({ ...d, link: e.currentTarget.value || null }))}
          />
          <TextInput
            label={t('form.imageUrl')}
            value={draft.image_url ?? ''}
            maxLength={500}
            onChange={(e) => setDraft((d) => ({ ...d, image_url: e.currentTarget.value || null }))}
          />
        </Group>
        <Tabs defaultValue="en" keepMounted={false}>
          <Tabs.List>
            {LANGS.map((lang) => (
              <Tabs.Tab key={lang} value={lang} data-testid={`content-lang-${lang}`}>
                {t(`lang.${lang}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {LANGS.map((lang) => (
            <Tabs.Panel key={lang} value={lang}>
              <LanguageFields lang={lang} draft={draft} set={(field, value) => set(field, lang, value)} />
            </Tabs.Panel>
          ))}
        </Tabs>
        <ErrorNote error={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {t('form.cancel')}
          </Button>
          <Button loading={busy} onClick={save} data-testid="content-save">
            {t('form.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
