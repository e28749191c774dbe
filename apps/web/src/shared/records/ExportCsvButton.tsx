import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadCsv } from './api.ts';

/**
 * "Export CSV" for a trade record page: the same look and behaviour as RecordList's button —
 * exports every row of the current filter (no paging) from the server's CSV call, then says how
 * many rows were saved; a refusal shows its localized message.
 */
export function ExportCsvButton({
  call,
  params,
  filename,
}: {
  call: string;
  params: Readonly<Record<string, string | number | undefined>>;
  filename: string;
}) {
  const { t } = useTranslation('assets');
  const [exporting, setExporting] = useState(false);
  const exportCsv = async () => {
    setExporting(true);
    try {
      const count = await downloadCsv(call, params, filename);
      notifications.show({ color: 'teal', message: t('records.exported', { count }) });
    } catch (error) {
      notifications.show({ color: 'red', message: (error as Error).message });
    } finally {
      setExporting(false);
    }
  };
  return (
    <Button variant="light" onClick={exportCsv} loading={exporting} data-testid="records-export">
      {t('records.export')}
    </Button>
  );
}
