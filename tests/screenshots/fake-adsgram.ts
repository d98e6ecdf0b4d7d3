/**
 * A stand-in for the Adsgram SDK script (https://sad.adsgram.ai/js/sad.min.js), served to the
 * page by the screenshot script: `Adsgram.init().show()` ends in a reward or a skip.
 */
export const fakeAdsgramScript = (outcome: 'reward' | 'skip'): string => `
window.Adsgram = {
  init: function () {
    return {
      show: function () {
        return ${outcome === 'reward'
          ? "Promise.resolve({ done: true, description: 'Adv was watched', state: 'destroy', error: false })"
          : "Promise.reject({ done: false, description: 'Adv was skipped', state: 'destroy', error: false })"};
      },
    };
  },
};`;
