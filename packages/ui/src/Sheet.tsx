import { Box, Drawer, Modal, useMatches } from '@mantine/core';
import type { ReactNode } from 'react';

export type SheetProps = {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  /** Accessible name of the close button (the app translates it). */
  closeLabel: string;
  'data-testid'?: string;
};

/** Below 48em a bottom sheet that slides up from the thumb; wider screens get a centred dialog. */
export function Sheet({ opened, onClose, title, children, closeLabel, 'data-testid': testId }: SheetProps) {
  const wide = useMatches({ base: false, sm: true });
  if (wide) {
    return (
      <Modal
        opened={opened}
        onClose={onClose}
        title={title}
        centered
        closeButtonProps={{ 'aria-label': closeLabel }}
        data-testid={testId}
      >
        {children}
      </Modal>
    );
  }
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      title={title}
      position="bottom"
      closeButtonProps={{ 'aria-label': closeLabel }}
      styles={{
        // As tall as its content, never taller than most of the screen.
        content: { height: 'auto', maxHeight: '85dvh', borderTopLeftRadius: 16, borderTopRightRadius: 16 },
        body: { paddingBottom: 'calc(var(--mantine-spacing-md) + env(safe-area-inset-bottom))' },
      }}
      data-testid={testId}
    >
      <Box>{children}</Box>
    </Drawer>
  );
}
