-- A task's title in the other eight languages (docs/admin.md "Tasks"): { locale: title } for the
-- ones the console set; `title` stays the English one, which a language without its own shows.
ALTER TABLE tasks ADD COLUMN titles JSONB NOT NULL DEFAULT '{}'::jsonb;
