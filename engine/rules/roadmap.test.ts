import { describe, expect, it } from 'vitest';
import { isRoadmapActive, roadmapFor } from './roadmap.ts';

describe('roadmap highlight (§4)', () => {
  it('highlights a phase whose date is the current month and year', () => {
    expect(isRoadmapActive('September 2024', 2024, 8)).toBe(true);
    expect(isRoadmapActive('September 2024', 2025, 8)).toBe(false);
    expect(roadmapFor(2024, 8).filter((p) => p.isRoadmapActive).map((p) => p.phase)).toEqual([1, 2]);
  });

  it('never matches quarter dates', () => {
    for (let month = 0; month < 12; month++) {
      expect(roadmapFor(2025, month).filter((p) => p.date.includes('Quarter')).some((p) => p.isRoadmapActive)).toBe(false);
    }
  });
});
