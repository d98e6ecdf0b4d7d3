-- The Stars shop (docs/shop.md): the console's catalog, the orders with their states, each Telegram
-- payment once by its charge id, the revenue a day by item, and what reconciliation flags.

-- A bought double-tap stretch runs until then (0 = none). Read with the row by the click path
-- (u.*); not indexed, so click updates stay heap-only (0002).
ALTER TABLE users ADD COLUMN tap_boost_until_ms BIGINT NOT NULL DEFAULT 0;
-- The airdrop rule (docs/airdrop.md "Bought boosts"): taps a purchase gave (auto-tap packs, the
-- energy of refills), and the MONEY of achievements those taps were needed for.
ALTER TABLE users ADD COLUMN bought_clicks BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN bought_money NUMERIC NOT NULL DEFAULT 0;

-- Every order and refund has a ledger row in Stars (XTR): not a balance of ours, the record of what
-- Telegram charged and gave back.
ALTER TABLE ledger DROP CONSTRAINT IF EXISTS ledger_currency_check;
ALTER TABLE ledger ADD CONSTRAINT ledger_currency_check CHECK (currency IN ('DOLLAR', 'MONEY', 'XTR'));

CREATE TABLE shop_items (
  id            TEXT PRIMARY KEY CHECK (id ~ '^[a-z0-9-]{1,32}$'),
  effect        TEXT NOT NULL CHECK (effect IN ('energyRefill', 'doubleTap', 'autoTaps')),
  price_stars   INTEGER NOT NULL CHECK (price_stars BETWEEN 1 AND 10000),
  amount        INTEGER NOT NULL DEFAULT 0 CHECK (amount BETWEEN 0 AND 1000000), -- hours of double taps, taps of a pack
  daily_limit   INTEGER NOT NULL CHECK (daily_limit BETWEEN 1 AND 100),
  enabled       BOOLEAN NOT NULL DEFAULT true,
  titles        JSONB NOT NULL,           -- { locale: title ≤ 32 characters } for all nine locales
  position      INTEGER NOT NULL DEFAULT 0,
  updated_at_ms BIGINT NOT NULL DEFAULT 0
);

-- The default catalog (docs/shop.md "Catalog"); the console changes it.
INSERT INTO shop_items (id, effect, price_stars, amount, daily_limit, position, titles) VALUES
  ('energy-refill', 'energyRefill', 10, 0, 3, 1,
   '{"en":"Energy refill","ru":"Полная энергия","uk":"Повна енергія","fa":"پر کردن انرژی","id":"Isi ulang energi","vi":"Nạp đầy năng lượng","tr":"Enerji doldurma","es":"Recarga de energía","pt-BR":"Recarga de energia"}'),
  ('double-tap-day', 'doubleTap', 50, 24, 1, 2,
   '{"en":"Double taps for a day","ru":"Двойной тап на день","uk":"Подвійний тап на день","fa":"ضربه دوبرابر برای یک روز","id":"Ketukan ganda sehari","vi":"Chạm gấp đôi trong 1 ngày","tr":"Bir gün çift dokunuş","es":"Toques dobles por un día","pt-BR":"Toques em dobro por um dia"}'),
  ('auto-tap-pack', 'autoTaps', 25, 5000, 5, 3,
   '{"en":"5,000 auto-taps","ru":"5 000 автотапов","uk":"5 000 автотапів","fa":"۵٬۰۰۰ ضربه خودکار","id":"5.000 ketukan otomatis","vi":"5.000 lượt chạm tự động","tr":"5.000 otomatik dokunuş","es":"5000 toques automáticos","pt-BR":"5.000 toques automáticos"}');

-- An order: made with its invoice link, approved at pre-checkout, paid once by successful_payment,
-- refunded by the console. The item's effect, amount and price are copied: a later catalog edit
-- never changes what an order bought.
CREATE TABLE shop_orders (
  id              BIGSERIAL PRIMARY KEY,
  user_id         BIGINT NOT NULL REFERENCES users (id),
  item_id         TEXT NOT NULL REFERENCES shop_items (id),
  effect          TEXT NOT NULL,
  amount          INTEGER NOT NULL,
  price_stars     INTEGER NOT NULL,
  state           TEXT NOT NULL DEFAULT 'created' CHECK (state IN ('created', 'approved', 'paid', 'refunded')),
  created_at_ms   BIGINT NOT NULL,
  approved_at_ms  BIGINT,
  paid_at_ms      BIGINT,
  paid_day        INTEGER,                 -- UTC day of the payment: the daily limit counts these
  charge_id       TEXT UNIQUE,             -- telegram_payment_charge_id of the payment that paid it
  applied         JSONB,                   -- what the credit did (energy gained, boost end, dollars, taps)
  refunded_at_ms  BIGINT,
  not_taken_back  JSONB                    -- what a refund could not take back
);
CREATE INDEX shop_orders_user_idx ON shop_orders (user_id, id DESC);
CREATE INDEX shop_orders_limit_idx ON shop_orders (user_id, item_id, paid_day) WHERE state = 'paid';

-- Each Telegram payment once: its charge id is the key, so a successful_payment delivered twice,
-- late, or to two processes at once credits one order once. `credited` false: no order could take
-- it (gone, or already paid by another charge): the console refunds it.
CREATE TABLE star_payments (
  charge_id       TEXT PRIMARY KEY,
  order_id        BIGINT REFERENCES shop_orders (id),
  user_id         BIGINT NOT NULL,
  stars           INTEGER NOT NULL,
  payload         TEXT NOT NULL,
  credited        BOOLEAN NOT NULL,
  received_at_ms  BIGINT NOT NULL,
  refunded_at_ms  BIGINT,
  seen_at_telegram BOOLEAN NOT NULL DEFAULT false
);
CREATE INDEX star_payments_unseen_idx ON star_payments (received_at_ms) WHERE NOT seen_at_telegram;

-- Stars revenue a day by item, kept in the transaction of each payment and refund (the console reads
-- it; nothing scans the orders). A payment lands in one of 16 rows of its day and item (user id
-- mod 16) so buyers do not queue on one row; the console sums them.
CREATE TABLE shop_revenue_days (
  day            INTEGER NOT NULL,
  item_id        TEXT NOT NULL,
  shard          SMALLINT NOT NULL,
  orders         BIGINT NOT NULL DEFAULT 0,
  stars          BIGINT NOT NULL DEFAULT 0,
  refunds        BIGINT NOT NULL DEFAULT 0,
  refunded_stars BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (day, item_id, shard)
);

-- What the reconciliation job found between our payments and getStarTransactions.
CREATE TABLE star_reconciliation (
  charge_id      TEXT NOT NULL,
  problem        TEXT NOT NULL CHECK (problem IN ('unknownHere', 'missingAtTelegram', 'starsDiffer', 'refundDiffers')),
  detail         TEXT NOT NULL,
  found_at_ms    BIGINT NOT NULL,
  PRIMARY KEY (charge_id, problem)
);
-- How far the job has read Telegram's list (its offset), one row.
CREATE TABLE star_reconciliation_mark (
  id          SMALLINT PRIMARY KEY CHECK (id = 1),
  offset_read BIGINT NOT NULL DEFAULT 0,
  ran_at_ms   BIGINT NOT NULL DEFAULT 0
);
INSERT INTO star_reconciliation_mark (id) VALUES (1);
