/** The product's name, never translated (docs/decisions/i18n.md): the logo's alternative text. */
export const productName = 'MONEY';

/** Art made for MONEY lives in public/art/ (docs/art.md); one helper names the files. */
export const art = (name: string): string => `/art/${name}.svg`;
