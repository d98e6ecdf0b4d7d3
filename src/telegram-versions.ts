/** The Bot API version each feature we use arrived in (core.telegram.org/bots/webapps). */
export const since = {
  colors: '6.1',
  backButton: '6.1',
  haptics: '6.1',
  telegramLink: '6.1',
  invoice: '6.1',
  cloudStorage: '6.9',
  verticalSwipes: '7.7',
  story: '7.8',
  fullscreen: '8.0',
  orientationLock: '8.0',
  homeScreen: '8.0',
  preparedMessage: '8.0',
  deviceStorage: '9.0',
} as const;
export type TelegramFeature = keyof typeof since;
