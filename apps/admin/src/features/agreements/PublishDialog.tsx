import type { AgreementKind } from '@bourse/protocol';
import { TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ReasonDialog } from '../../app/ui.tsx';
import { publishVersion } from './api.ts';

/** `YYYY-MM-DDTHH:mm` in the browser's time zone (what a datetime-local field holds). */
export function localInputValue(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Publishes a draft from the date given (now by default) with a reason for the audit log. */
export function PublishDialog(props: {
  kind: AgreementKind;
  version: number;
  onClose: () => void;
  onPublished: () => void;
}) {
  const { t } = useTranslation('adminAgreements');
  // The form starts at the staff member's "now"; the server's clock decides (a few minutes past is now).
  const [effective, setEffective] = useState(() => localInputValue(Date.now()));
  const effectiveMs = new Date(effective).getTime();
  return (
    <ReasonDialog
      opened
      size="lg"
      title={`${t(`kinds.${props.kind}`)} · ${t('publish.title', { version: props.version })}`}
      text={t('publish.note')}
      confirmLabel={t('publish.confirm')}
      onClose={props.onClose}
      onSubmit={async (reason) => {
        await publishVersion({
          kind: props.kind,
          version: props.version,
          effective_at: Number.isFinite(effectiveMs) ? effectiveMs : 0,
          reason,
        });
        props.onPublished();
      }}
    >
      <TextInput
        type="datetime-local"
        label={t('publish.effectiveLabel')}
        value={effective}
        onChange={(e) => setEffective(e.currentTarget.value)}
        required
        data-testid="agreement-effective"
      />
    </ReasonDialog>
  );
}
