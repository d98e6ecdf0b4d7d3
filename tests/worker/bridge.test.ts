import { effect } from '@preact/signals-react';
import { describe, expect, it } from 'vitest';
import { applySnapshot } from '../../src/engine-client/bridge.ts';
import { $balance, $energy, $levels, $message, $totalEarn, emptySnapshot } from '../../src/engine-client/signals.ts';

describe('bridge', () => {
  it('writes each snapshot field into its signal, notifying only the signals whose value changed', () => {
    applySnapshot({ ...emptySnapshot, energy: 10, balance: '5', levels: { 4: 1 } });
    const runs = { energy: 0, balance: 0, levels: 0, totalEarn: 0 };
    const stops = [
      effect(() => void ($energy.value, runs.energy++)),
      effect(() => void ($balance.value, runs.balance++)),
      effect(() => void ($levels.value, runs.levels++)),
      effect(() => void ($totalEarn.value, runs.totalEarn++)),
    ];
    applySnapshot({ ...emptySnapshot, version: 2, energy: 9, balance: '5', levels: { 4: 1 } });
    expect($energy.value).toBe(9);
    expect(runs).toEqual({ energy: 2, balance: 1, levels: 1, totalEarn: 1 });
    applySnapshot({ ...emptySnapshot, version: 3, energy: 9, balance: '6', levels: { 4: 2 } });
    expect(runs).toEqual({ energy: 2, balance: 2, levels: 2, totalEarn: 1 });
    stops.forEach((stop) => stop());
  });

  it('updates the message only when a new message id arrives', () => {
    applySnapshot({ ...emptySnapshot, message: { id: 1, text: 'a' } });
    const first = $message.value;
    applySnapshot({ ...emptySnapshot, message: { id: 1, text: 'a' } });
    expect($message.value).toBe(first);
    applySnapshot({ ...emptySnapshot, message: { id: 2, text: 'a' } });
    expect($message.value).toEqual({ id: 2, text: 'a' });
  });
});
