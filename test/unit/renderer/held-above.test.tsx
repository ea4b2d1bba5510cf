// How a held message joins other text: above what came after it, a blank line between; a blank side adds nothing.
import { describe, expect, it } from 'vitest';
import { heldAbove } from '../../../renderer/src/state/store';

describe('heldAbove', () => {
  it('puts the held text above the later text, a blank line between', () => {
    expect(heldAbove('the first', 'the second')).toBe('the first\n\nthe second');
  });
  it('a blank or missing side adds nothing, and a held text is never dropped', () => {
    expect(heldAbove('kept', undefined)).toBe('kept');
    expect(heldAbove('kept', '  \n')).toBe('kept');
    expect(heldAbove(undefined, 'typed')).toBe('typed');
    expect(heldAbove('', 'typed')).toBe('typed');
  });
});
