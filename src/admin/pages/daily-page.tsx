import { useState } from 'react';
import type { AdminDailyDay } from '../../../engine/wire/admin-types.ts';
import { boostCatalogue, economy, passiveItemKeys, type BoostKey } from '../../../engine/rules/economy.ts';
import { AdminApiError, get, put } from '../api.ts';
import { useLoad } from '../use-load.ts';

const cardName = (key: number): string => boostCatalogue[key as BoostKey]?.title ?? `#${key}`;
const setBy = (id: string | null) => (id === null ? <span className="muted">drawn</span> : id === '0' ? 'operator API' : `admin ${id}`);

/** The editor of one coming day: three cards and a word; empty fields keep what the day has. */
const DayEditor = ({ day, onSaved }: { day: AdminDailyDay; onSaved: () => void }) => {
  const [combo, setCombo] = useState<string[]>(day.combo.map(String));
  const [cipher, setCipher] = useState(day.cipher);
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const save = async (body: { combo?: number[] | null; cipher?: string | null }) => {
    setSaving(true);
    try {
      await put<AdminDailyDay>(`/daily/${day.day}`, body);
      setError(undefined);
      onSaved();
    } catch (e) {
      setError(e instanceof AdminApiError ? `${e.field ? `${e.field}: ` : ''}${e.message}` : String(e));
    }
    setSaving(false);
  };
  return (
    <div className="form">
      <div className="form__row">
        {combo.map((key, i) => (
          <label key={i} className="field">
            <span className="field__label">Card {i + 1}</span>
            <select value={key} onChange={(e) => setCombo(combo.map((k, j) => (j === i ? e.target.value : k)))}>
              {passiveItemKeys.map((k) => <option key={k} value={k}>{k} · {cardName(k)}</option>)}
            </select>
          </label>
        ))}
        <label className="field">
          <span className="field__label">Word (A–Z, up to {economy.dailyCipherMaxLetters})</span>
          <input value={cipher} maxLength={economy.dailyCipherMaxLetters} onChange={(e) => setCipher(e.target.value.toUpperCase())} />
        </label>
      </div>
      <div className="actions">
        <button type="button" className="btn" disabled={saving} onClick={() => void save({ combo: combo.map(Number), cipher })}>Set {day.day}</button>
        {(day.comboSetBy !== null || day.cipherSetBy !== null) && (
          <button type="button" className="btn btn--ghost" disabled={saving} onClick={() => void save({ combo: null, cipher: null })}>Back to the server’s draw</button>
        )}
      </div>
      {error && <p className="error" role="alert">{error}</p>}
    </div>
  );
};

/**
 * The daily loop (docs/admin.md "Daily"): each day's combo and word (the server's draw until an
 * operator sets a coming day), and its streak claims, combo finds, cipher solves and reminders.
 */
const DailyPage = () => {
  const days = useLoad(() => get<{ items: AdminDailyDay[] }>('/daily'), 'daily');
  const [editing, setEditing] = useState<string>();
  return (
    <>
      <header className="page__head"><h1>Daily</h1></header>
      <section className="panel">
        <p className="muted small">
          Days are UTC. A day nobody set is drawn from the server secret: the combo among cards 4–{economy.dailyComboPoolLastKey}, the word from the server’s list.
          Post the word in the channel: that is where players find it. A day can be set until it begins; players never see the combo or the word before they find it.
        </p>
        {days.error && <p className="error" role="alert">{days.error}</p>}
        <div className="table-wrap">
          <table className="daily-table">
            <thead>
              <tr>
                <th>Day</th><th>Combo</th><th>Word</th>
                <th className="num">Streak claims</th><th className="num">Combo finds / wins</th><th className="num">Cipher wins / misses</th>
                <th className="num">Reminders queued / blocked</th><th />
              </tr>
            </thead>
            <tbody>
              {(days.data?.items ?? []).map((d) => (
                <tr key={d.day} className={d.state === 'past' ? 'off' : ''}>
                  <td className="nowrap">{d.day} {d.state === 'today' && <span className="badge">today</span>}</td>
                  <td>{d.combo.map(cardName).join(', ')}<div className="small">{setBy(d.comboSetBy)}</div></td>
                  <td><strong>{d.cipher}</strong><div className="small">{setBy(d.cipherSetBy)}</div></td>
                  <td className="num">{d.counts.streakClaims}</td>
                  <td className="num">{d.counts.comboFinds} / {d.counts.comboWins}</td>
                  <td className="num">{d.counts.cipherWins} / {d.counts.cipherMisses}</td>
                  <td className="num">{d.counts.remindersQueued} / {d.counts.remindersBlocked}</td>
                  <td>{d.state === 'coming' && <button type="button" className="btn btn--ghost btn--small" onClick={() => setEditing(editing === d.day ? undefined : d.day)}>{editing === d.day ? 'Close' : 'Set'}</button>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {editing && days.data && (
          <section className="panel" aria-label={`Set ${editing}`}>
            <h2>Set {editing}</h2>
            <DayEditor
              key={editing}
              day={days.data.items.find((d) => d.day === editing)!}
              onSaved={() => {
                setEditing(undefined);
                days.reload();
              }}
            />
          </section>
        )}
      </section>
    </>
  );
};

export default DailyPage;
