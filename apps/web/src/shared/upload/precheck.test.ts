import { describe, expect, it } from 'vitest';
import { percentOf, precheck, UPLOAD_ACCEPT, UPLOAD_MAX_BYTES } from './precheck.ts';

describe('the check before an upload', () => {
  it('lets a JPEG or PNG up to 8 MB through', () => {
    expect(precheck({ size: 1, type: 'image/jpeg', name: 'a.jpg' })).toBeNull();
    expect(precheck({ size: UPLOAD_MAX_BYTES, type: 'image/png', name: 'a.png' })).toBeNull();
    // A phone gallery may give no type: the name decides here, the server on the bytes.
    expect(precheck({ size: 10, type: '', name: 'IMG_0001.JPEG' })).toBeNull();
  });

  it('refuses an empty file, one byte over 8 MB, and anything but JPEG or PNG', () => {
    expect(precheck({ size: 0, type: 'image/jpeg', name: 'a.jpg' })).toEqual({ rule: 'empty' });
    expect(precheck({ size: UPLOAD_MAX_BYTES + 1, type: 'image/jpeg', name: 'a.jpg' })).toEqual({
      rule: 'tooLarge',
      maxMb: 8,
    });
    expect(precheck({ size: 10, type: 'application/pdf', name: 'scan.pdf' })).toEqual({ rule: 'type' });
    expect(precheck({ size: 10, type: 'image/gif', name: 'a.gif' })).toEqual({ rule: 'type' });
    expect(precheck({ size: 10, type: '', name: 'scan.pdf' })).toEqual({ rule: 'type' });
    // The browser's type wins over the name: a PDF renamed .jpg is not sent.
    expect(precheck({ size: 10, type: 'application/pdf', name: 'scan.jpg' })).toEqual({ rule: 'type' });
    expect(precheck({ size: 2048, type: 'image/png', name: 'a.png' }, 1024)).toEqual({
      rule: 'tooLarge',
      maxMb: 0,
    });
  });

  it('accepts in the file picker only what the pipeline takes', () => {
    expect(UPLOAD_ACCEPT).toBe('image/jpeg,image/png');
  });

  it('counts progress in whole percents, 0 while the total is unknown', () => {
    expect(percentOf(0, 0)).toBe(0);
    expect(percentOf(1, 3)).toBe(33);
    expect(percentOf(3, 3)).toBe(100);
    expect(percentOf(5, 3)).toBe(100);
  });
});
