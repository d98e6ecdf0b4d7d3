import { describe, expect, it } from 'vitest';
import { refusalOf } from './error-body.ts';
import { messages } from './messages.ts';
import { frozenPlayerMessage, isRefusalCode, playerRefusalCodes, refusalCatalogId, refusalCodes, refusalMessage, refusals, refusalValueNames, upgradeRefusalCode } from './refusals.ts';

describe('refusals', () => {
  it('fills the values into the English the server sends today, word for word', () => {
    expect(refusalMessage('requiredParameter', { field: 'click' })).toBe('Required parameter "click" is missing');
    expect(refusalMessage('invalidParameter', { field: 'click', rule: 'must be <= 100000' })).toBe('Parameter "click" must be <= 100000');
    expect(refusalMessage('refLevelUnaffordable', { level: 3, price: '1000' })).toBe('Not enough MONEY: level 3 costs 1000');
    expect(refusalMessage('outsideServiceUnavailable', { service: 'turnstile' })).toBe('The turnstile check is unavailable right now, please try again later');
    expect(refusalMessage('noRoute', { method: 'GET', path: '/x' })).toBe('No route GET /x');
    expect(refusalMessage('upgradeLocked')).toBe('This item is locked: upgrade the previous item first');
    // A value not given stays as written, so a missing one shows instead of vanishing.
    expect(refusalMessage('taskNotFound')).toBe('Task {taskId} not found');
  });

  it('points a refusal that is a §8 message or the frozen notice at its text and catalog entry', () => {
    expect(refusalMessage('rewardAlreadyClaimed')).toBe(messages.easterAlreadyClaimed);
    expect(refusalCatalogId('rewardAlreadyClaimed')).toBe('app.msg.easterAlreadyClaimed');
    expect(refusalMessage('usernameLacksMoney')).toBe(messages.usernameClaimFailed);
    expect(refusalMessage('internalError')).toBe(messages.somethingWrong);
    expect(refusalMessage('frozen')).toBe(frozenPlayerMessage);
    expect(refusalCatalogId('frozen')).toBe('app.frozen.message');
    expect(refusalCatalogId('upgradeLocked')).toBe('app.refusal.upgradeLocked');
    // No two codes send the same English: a text names one refusal.
    const texts = refusalCodes.map((code) => refusals[code].text);
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('codes are camelCase, and only a field name is a value a catalog entry may show', () => {
    for (const code of refusalCodes) expect(code, code).toMatch(/^[a-z][a-zA-Z]*$/);
    expect(refusalValueNames('requiredParameter')).toEqual(['field']);
    expect(refusalValueNames('proofWrongDomain')).toEqual(['domain', 'expected']);
    expect(playerRefusalCodes).toContain('upgradeUnaffordable');
    expect(playerRefusalCodes).not.toContain('wrongApiKey');
  });

  it('names the code of each upgrade refusal the engine and the server share', () => {
    expect(Object.values(upgradeRefusalCode).map((code) => refusalMessage(code))).toEqual([
      'This upgrade is already at its maximum level',
      'This item is locked: upgrade the previous item first',
      'Not enough money for this upgrade',
    ]);
  });

  it('reads a refusal out of a body: the message, a known code and the field', () => {
    expect(isRefusalCode('frozen')).toBe(true);
    expect(isRefusalCode('toString')).toBe(false);
    expect(refusalOf({ error: 'Bad Request', message: 'Unknown parameter "x"', field: 'x', code: 'unknownParameter' })).toEqual({
      message: 'Unknown parameter "x"',
      field: 'x',
      code: 'unknownParameter',
    });
    expect(refusalOf({ error: 'Bad Request', message: 'm', code: 'fromANewerServer', field: 3 })).toEqual({ message: 'm' });
    expect(refusalOf('plain text')).toEqual({ message: 'plain text' });
    expect(refusalOf({ error: 'E', message: '' })).toBeNull();
    expect(refusalOf(null)).toBeNull();
  });
});
