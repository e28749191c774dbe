import type { AdminContentData } from '@bourse/protocol';
import { SegmentedControl, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ReasonDialog } from '../../app/ui.tsx';
import { publishArticle, unpublishArticle } from './api.ts';

/** `datetime-local` text (the staff member's own time zone) → ms; null when empty or unreadable. */
export function scheduleMs(text: string): number | null {
  if (!text) return null;
  const ms = new Date(text).getTime();
  return Number.isFinite(ms) ? ms : null;
}

/** Publish now or at a time (audited; the note is optional). */
export function PublishDialog(props: {
  row: AdminContentData | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('adminContent');
  const [mode, setMode] = useState<'now' | 'schedule'>('now');
  const [at, setAt] = useState('');
  return (
    <ReasonDialog
      opened={props.row !== null}
      title={`${t('publish.title')}: ${props.row?.title.en ?? ''}`}
      confirmLabel={t('publish.confirm')}
      reasonOptional
      onClose={() => {
        setMode('now');
        setAt('');
        props.onClose();
      }}
      onSubmit={async (reason) => {
        if (!props.row) return;
        await publishArticle({
          id: props.row.id,
          publish_at: mode === 'schedule' ? scheduleMs(at) : null,
          reason,
        });
        props.onDone();
      }}
    >
      <Stack gap="xs">
        <SegmentedControl
          value={mode}
          onChange={(v) => setMode(v as 'now' | 'schedule')}
          data={[
            { value: 'now', label: t('publish.now') },
            { value: 'schedule', label: t('publish.schedule') },
          ]}
          data-testid="content-publish-mode"
        />
        {mode === 'schedule' ? (
          <TextInput
            type="datetime-local"
            label={t('publish.at')}
            value={at}
            onChange={(e) => setAt(e.currentTarget.value)}
            data-testid="content-publish-at"
          />
        ) : null}
      </Stack>
    </ReasonDialog>
  );
}

/** Back to draft, with the reason the server requires (audited). */
export function UnpublishDialog(props: {
  row: AdminContentData | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('adminContent');
  return (
    <ReasonDialog
      opened={props.row !== null}
      title={`${t('unpublish.title')}: ${props.row?.title.en ?? ''}`}
      text={t('unpublish.lead')}
      confirmLabel={t('unpublish.confirm')}
      danger
      onClose={props.onClose}
      onSubmit={async (reason) => {
        if (!props.row) return;
        await unpublishArticle({ id: props.row.id, reason });
        props.onDone();
      }}
    />
  );
}
