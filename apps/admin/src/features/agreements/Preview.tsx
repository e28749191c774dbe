import { agreementBlocks } from '@bourse/protocol';
import { List, Stack, Text, Title } from '@mantine/core';

/**
 * A draft's text as customers will see it: the same `agreementBlocks` the server serves with, each
 * block an element (text only; HTML typed into a draft shows as text).
 */
export function Preview({ title, body }: { title: string; body: string }) {
  return (
    <Stack gap="xs" data-testid="agreement-preview">
      <Title order={3} size="h4">
        {title}
      </Title>
      {agreementBlocks(body).map((block, index) => {
        const key = `${block.type}-${index}`;
        if (block.type === 'heading')
          return (
            <Title key={key} order={block.level === 2 ? 4 : 5} size="h5">
              {block.text}
            </Title>
          );
        if (block.type === 'list')
          return (
            <List key={key} size="sm">
              {block.items.map((item, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: list items are positional text
                <List.Item key={i}>{item}</List.Item>
              ))}
            </List>
          );
        return (
          <Text key={key} size="sm">
            {block.text}
          </Text>
        );
      })}
    </Stack>
  );
}
