-- Rewards paid in real play (docs/storage.md). Times are epoch milliseconds, like 0001_init.sql.

-- The X part of the welcome reward is paid once: with the welcome claim when X was connected
-- first, or when X is connected after the claim. Players who claimed with X connected had it.
ALTER TABLE users ADD COLUMN tw_reward_paid BOOLEAN NOT NULL DEFAULT false;
UPDATE users SET tw_reward_paid = true WHERE is_claimed_welcome AND tw_age > 0;

-- §9 "New users must click at least $100 and subscribe to the channel": the invite bonus waits
-- for both. clicked_at_ms is when the friend reached $100; membership is then checked with the
-- Bot API's getChatMember by a job, due at next_check_at_ms (the friend's own actions bring it
-- forward), and remembered in is_member.
ALTER TABLE referrals ADD COLUMN clicked_at_ms BIGINT;
ALTER TABLE referrals ADD COLUMN is_member BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE referrals ADD COLUMN next_check_at_ms BIGINT;
UPDATE referrals SET clicked_at_ms = credited_at_ms, is_member = true WHERE status = 'credited';
CREATE INDEX referrals_member_due_idx ON referrals (next_check_at_ms) WHERE status = 'pending' AND clicked_at_ms IS NOT NULL;
