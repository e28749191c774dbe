import type { AgreementBlock } from '@bourse/protocol';
import { List, Text, Title } from '@mantine/core';

/** An agreement's text blocks as elements: text only, never HTML (React escapes every string). */
export function AgreementBlocks({ blocks }: { blocks: AgreementBlock[] }) {
  return (
    <>
      {blocks.map((block, index) => {
        const key = `${block.type}-${index}`;
        if (block.type === 'heading')
          return (
            <Title key={key} order={block.level} size={block.level === 2 ? 'h4' : 'h5'} mt="sm">
              {block.text}
            </Title>
          );
        if (block.type === 'list')
          return (
            <List key={key} spacing={4}>
              {block.items.map((item, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: list items are positional text
                <List.Item key={i}>{item}</List.Item>
              ))}
            </List>
          );
        return <Text key={key}>{block.text}</Text>;
      })}
    </>
  );
}
