import { describe, expect, it } from 'vitest';
import { heardPosition, readAfter } from './read-after.ts';

describe('the position a tab reads after', () => {
  it('is none until a write answered one, then the highest heard, compared as positions', () => {
    expect(readAfter()).toBe('');
    heardPosition(null);
    expect(readAfter()).toBe('');
    heardPosition('0/9FFFFFF');
    heardPosition('0/16B3748');
    expect(readAfter()).toBe('0/9FFFFFF');
    heardPosition('0/A0000000');
    expect(readAfter()).toBe('0/A0000000');
    heardPosition('1/0');
    heardPosition('0/FFFFFFFF');
    expect(readAfter()).toBe('1/0');
  });
});
