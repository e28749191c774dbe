import { describe, expect, it } from 'vitest';
import { csvCell, csvDocument, csvNumber } from './csv.ts';

describe('csv', () => {
  it('guards text cells a spreadsheet would run as a formula; numbers pass as given', () => {
    for (const v of ['=SUM(A1)', '+1', '-2', '@cmd', '\tx']) expect(csvCell(v)).toBe(`'${v}`);
    expect(csvCell('=1,2')).toBe(`"'=1,2"`);
    expect(csvNumber('-12.50')).toBe('-12.50');
    expect(csvNumber(null)).toBe('');
    expect(csvCell('a "b"')).toBe('"a ""b"""');
    expect(csvCell('x\ny')).toBe('"x\ny"');
  });

  it('writes a BOM, the header, CRLF after every line', () => {
    expect(csvDocument(['编号', '=x'], [['1', '2']])).toBe("\uFEFF编号,'=x\r\n1,2\r\n");
  });
});
