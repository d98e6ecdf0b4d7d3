/**
 * The words the server draws a day's cipher from when no operator set one (docs/rules.md §15.3).
 * Server-side only: the mini-app never holds the list. Short money words, A–Z, so they are quick
 * to tap in Morse and easy to post in the channel.
 */
export const cipherWords: readonly string[] = [
  'CASH', 'COIN', 'GOLD', 'BANK', 'RICH', 'MINT', 'LOOT', 'FUND', 'BOND', 'DEAL',
  'GAIN', 'EARN', 'SAVE', 'TIP', 'TON', 'BULL', 'MOON', 'PUMP', 'HODL', 'MINE',
  'SAFE', 'VAULT', 'TOKEN', 'MONEY', 'PROFIT', 'WALLET', 'CREDIT', 'CENT', 'BUCK', 'DIME',
  'PENNY', 'NICKEL', 'SILVER', 'JEWEL', 'PEARL', 'RUBY', 'CROWN', 'ROYAL', 'LUCK', 'CHARM',
  'STAR', 'ROCKET', 'BOOST', 'LEVEL', 'POWER', 'ENERGY', 'TAP', 'CLICK', 'COMBO', 'STREAK',
  'BONUS', 'PRIZE', 'REWARD', 'YIELD', 'STAKE', 'TRADE', 'SWAP', 'MARKET', 'STOCK', 'SHARE',
  'ASSET', 'CAPITAL', 'INVEST', 'RALLY', 'SPARK', 'SHINE', 'GLOW', 'FLASH', 'SPEED', 'TURBO',
  'LAMBO', 'YACHT', 'CASINO', 'JACKPOT', 'DICE', 'ACE', 'KING', 'QUEEN', 'EMPIRE', 'TOWER',
  'PIGGY', 'JAR', 'PURSE', 'LEDGER', 'BLOCK', 'CHAIN', 'HASH', 'NODE', 'MINER', 'WHALE',
  'ROCK', 'DIAMOND', 'BRICK', 'PALACE', 'RICHES', 'FORTUNE', 'WEALTH', 'TREASURE', 'GEM', 'ORBIT',
];
