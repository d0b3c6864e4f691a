import { describe, expect, it } from 'vitest';
import { formatDuration } from '../src/duration.js';

describe('formatDuration', () => {
  it('prints a duration in its two largest whole units', () => {
    expect(formatDuration(3_600_000)).toBe('1 h');
    expect(formatDuration(5_400_000)).toBe('1 h 30 min');
    expect(formatDuration(600_000)).toBe('10 min');
    expect(formatDuration(45_500)).toBe('45 s');
    expect(formatDuration(90_061_000)).toBe('1 d 1 h');
    expect(formatDuration(86_460_000)).toBe('1 d');
    expect(formatDuration(250)).toBe('250 ms');
  });
});
