-- The language a player chose on the mini-app's profile card (docs/i18n.md): one of the nine
-- locales ('en', 'ru', …, 'pt-BR'), NULL until a choice is made. Kept apart from language_code,
-- which authentication overwrites from Telegram's init data on every session.
ALTER TABLE users ADD COLUMN language TEXT NULL;

-- The console's language broadcast segment reads the chosen language first, then Telegram's
-- (docs/decisions/i18n.md), lower-cased like the segment's code.
CREATE INDEX users_broadcast_language_idx ON users ((lower(COALESCE(language, language_code))));
