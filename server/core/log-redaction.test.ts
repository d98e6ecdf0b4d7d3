import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { redactUrl, withRedaction } from './log-redaction.ts';

describe('request log redaction', () => {
  it('hides the Adsgram key and the OAuth code and state, keeping the rest', () => {
    const logged: [url: string, redacted: string][] = [
      ['/x/public/adsgram/reward?userid=42&key=s3cret', '/x/public/adsgram/reward?userid=42&key=%5Bredacted%5D'],
      ['/x/callback/twitter?state=abc&code=def&error=', '/x/callback/twitter?state=%5Bredacted%5D&code=%5Bredacted%5D&error='],
      ['/x/leaderboard?page=2', '/x/leaderboard?page=2'],
      ['/x/tasks', '/x/tasks'],
    ];
    for (const [url, redacted] of logged) expect(redactUrl(url)).toBe(redacted);
  });

  it('keeps the secret out of what Fastify actually logs', async () => {
    const lines: string[] = [];
    const stream = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const app = Fastify({ logger: withRedaction({ level: 'info', stream }) as never });
    app.get('/reward', async () => ({ ok: true }));
    await app.inject({ method: 'GET', url: '/reward?userid=1&key=s3cret-key' });
    await app.close();
    const log = lines.join('');
    expect(log).toContain('/reward?userid=1');
    expect(log).not.toContain('s3cret-key');
  });

  it('leaves logging off when it is off', () => {
    expect(withRedaction(undefined)).toBe(false);
    expect(withRedaction(false)).toBe(false);
  });
});
