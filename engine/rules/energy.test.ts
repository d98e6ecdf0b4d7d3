import { describe, expect, it } from 'vitest';
import { autoClickAmount, availableEnergy, canAutoClick, clickValue, maxEnergy, spendEnergy } from './energy.ts';

describe('energy', () => {
  it('has a maximum of 500 × level', () => {
    expect(maxEnergy(1)).toBe(500);
    expect(maxEnergy(7)).toBe(3_500);
  });

  it('regenerates 1 every 5 s up to 500 × level', () => {
    expect(availableEnergy(0, 0, 4_999, 1)).toBe(0);
    expect(availableEnergy(0, 0, 5_000, 1)).toBe(1);
    expect(availableEnergy(10, 0, 60_000, 1)).toBe(22);
    expect(availableEnergy(490, 0, 3_600_000, 1)).toBe(500);
  });

  it('regenerates nothing when the clock steps back', () => {
    expect(availableEnergy(10, 10_000, 0, 1)).toBe(10);
  });

  it('keeps the partial regen interval when spending', () => {
    const after = spendEnergy(10, 0, 12_000, 1, 5);
    expect(after).toEqual({ energy: 7, energyAtMs: 10_000 });
    expect(availableEnergy(after.energy, after.energyAtMs, 15_000, 1)).toBe(8);
  });

  it('refuses to spend more than is available', () => {
    expect(() => spendEnergy(3, 0, 0, 1, 4)).toThrow(RangeError);
  });

  it('clicks for fingerLevel dollars and auto-clicks min(Finger level, 53) times', () => {
    expect(clickValue(4)).toBe(4);
    expect(autoClickAmount(10)).toBe(10);
    expect(autoClickAmount(500)).toBe(53);
  });

  it('auto-clicks only when energy ≥ amount × click amount', () => {
    expect(canAutoClick(20, 10, 2)).toBe(true);
    expect(canAutoClick(19, 10, 2)).toBe(false);
    expect(canAutoClick(500, 0, 1)).toBe(false);
  });
});
