import { describe, expect, it } from 'vitest';
import { AGREEMENT_LIMITS, agreementBlocks } from './agreements.ts';

describe('agreementBlocks', () => {
  it('turns the markdown subset into heading, paragraph and list blocks', () => {
    expect(
      agreementBlocks(
        '# Title\r\n\r\nOne line\nand the next.\n\n### Sub\n1. first\n2) second\n   continued\n- third',
      ),
    ).toEqual([
      { type: 'heading', level: 2, text: 'Title' },
      { type: 'paragraph', text: 'One line and the next.' },
      { type: 'heading', level: 3, text: 'Sub' },
      { type: 'list', items: ['first', 'second continued', 'third'] },
    ]);
  });

  it('keeps markup as text and drops link targets and emphasis marks', () => {
    const blocks = agreementBlocks(
      '<img src=x onerror=alert(1)>\n\n**bold** and `code` and [a link](javascript:alert(1))',
    );
    expect(blocks).toEqual([
      { type: 'paragraph', text: '<img src=x onerror=alert(1)>' },
      { type: 'paragraph', text: 'bold and code and a link' },
    ]);
    expect(JSON.stringify(blocks)).not.toContain('javascript');
  });

  it('gives nothing for an empty text and never more than blocksMax blocks', () => {
    expect(agreementBlocks('')).toEqual([]);
    expect(agreementBlocks('\n\n  \n')).toEqual([]);
    const many = Array.from({ length: AGREEMENT_LIMITS.blocksMax + 50 }, (_, i) => `p${i}`).join('\n\n');
    expect(agreementBlocks(many)).toHaveLength(AGREEMENT_LIMITS.blocksMax);
  });
});
