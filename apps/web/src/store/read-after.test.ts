// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { heardPosition, readAfterHeader } from './read-after.ts';

describe('the position a browser reads after', () => {
  beforeEach(() => localStorage.clear());

  it('sends nothing until a write answered a position', () => {
    expect(readAfterHeader()).toEqual({});
    heardPosition(null);
    expect(readAfterHeader()).toEqual({});
  });

  it('keeps the highest position heard, compared as numbers, across reloads', () => {
    heardPosition('0/9FFFFFF');
    heardPosition('0/16B3748');
    expect(readAfterHeader()).toEqual({ 'read-after': '0/9FFFFFF' });
    heardPosition('1/0');
    expect(readAfterHeader()).toEqual({ 'read-after': '1/0' });
    expect(localStorage.getItem('dp.readAfter')).toBe('1/0');
  });

  it('ignores what is no position, heard or stored', () => {
    heardPosition('1/0; drop');
    expect(readAfterHeader()).toEqual({});
    localStorage.setItem('dp.readAfter', '<script>');
    expect(readAfterHeader()).toEqual({});
    heardPosition('0/1');
    expect(readAfterHeader()).toEqual({ 'read-after': '0/1' });
  });
});
