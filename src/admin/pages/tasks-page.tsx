import { useState } from 'react';
import type { AdminTask, TaskInput } from '../../../engine/wire/admin-types.ts';
import { dirOf, localeNames, locales } from '../../../engine/rules/i18n/locales.ts';
import { AdminApiError, get, post, put } from '../api.ts';
import { Field } from '../field.tsx';
import { TaskPreview } from '../task-preview.tsx';
import { useLoad } from '../use-load.ts';

const types = ['SOCIAL', 'TASK1', 'INVITE', 'EXCHANGE', 'ACHIVEMENT', 'ADS'];
const handleTypes = ['', 'BOOST', 'REF', 'CHECK_USERNAME', 'CHECK_ONUS', 'CHECK_BINGX'];
const blank: TaskInput = { type: 'SOCIAL', handleType: null, title: '', titles: {}, image: 'task-x', desc: '', link: '', reward: '100', isDaily: false, needsCaptcha: false, active: true };

/** The languages a task may have a title of its own in; English is the title every other one falls back to. */
const otherLocales = locales.filter((l) => l !== 'en');

/** A task's editable fields: the server refuses any other (its id is in the path, its place is the reorder's). */
const inputOf = ({ id: _id, sortOrder: _sortOrder, ...input }: AdminTask): TaskInput => input;

/** Create or edit one task; the server's field errors are shown under their fields. */
const TaskEditor = ({ task, done }: { task: AdminTask | null; done(): void }) => {
  const [form, setForm] = useState<TaskInput>(task ? inputOf(task) : blank);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof TaskInput>(k: K, v: TaskInput[K]) => setForm((f) => ({ ...f, [k]: v }));
  const save = async () => {
    setBusy(true);
    try {
      if (task) await put(`/tasks/${task.id}`, form);
      else await post('/tasks', form);
      setErrors({});
      done();
    } catch (e) {
      if (e instanceof AdminApiError) setErrors(e.fields ?? { [e.field ?? 'form']: e.message });
      else setErrors({ form: String(e) });
    } finally {
      setBusy(false);
    }
  };
  const linkHint = ['INVITE', 'ADS', 'ACHIVEMENT'].includes(form.type) ? 'Threshold (friends, views a day, taps)' : 'Link (https, http or tg URL)';
  return (
    <section className="panel editor" aria-label={task ? `Edit task ${task.id}` : 'New task'}>
      <h2>{task ? `Edit task ${task.id}` : 'New task'}</h2>
      <div className="editor__grid">
        <div className="form">
          <Field label="Title (English)" error={errors.title}><input value={form.title} onChange={(e) => set('title', e.target.value)} maxLength={120} /></Field>
          <fieldset className="titles">
            <legend className="field__label">Title in other languages (optional: a blank one shows the English title)</legend>
            {errors.titles && <span className="field__error" role="alert">{errors.titles}</span>}
            <div className="titles__grid">
              {otherLocales.map((l) => (
                <Field key={l} label={localeNames[l]} error={errors[`titles.${l}`]}>
                  <input lang={l} dir={dirOf(l)} value={form.titles[l] ?? ''} maxLength={120} onChange={(e) => set('titles', { ...form.titles, [l]: e.target.value })} />
                </Field>
              ))}
            </div>
          </fieldset>
          <div className="form__row">
            <Field label="Type" error={errors.type}>
              <select value={form.type} onChange={(e) => set('type', e.target.value as TaskInput['type'])}>{types.map((t) => <option key={t}>{t}</option>)}</select>
            </Field>
            <Field label="Check (handleType)" error={errors.handleType}>
              <select value={form.handleType ?? ''} onChange={(e) => set('handleType', (e.target.value || null) as TaskInput['handleType'])}>
                {handleTypes.map((t) => <option key={t} value={t}>{t || 'none'}</option>)}
              </select>
            </Field>
          </div>
          <Field label={linkHint} error={errors.link}><input value={form.link} onChange={(e) => set('link', e.target.value)} /></Field>
          <div className="form__row">
            <Field label="Reward (MONEY)" error={errors.reward}><input inputMode="decimal" value={form.reward} onChange={(e) => set('reward', e.target.value)} /></Field>
            <Field label="Image (art name or https URL)" error={errors.image}><input value={form.image} onChange={(e) => set('image', e.target.value)} /></Field>
          </div>
          <Field label="Description" error={errors.desc}><textarea rows={2} value={form.desc} onChange={(e) => set('desc', e.target.value)} /></Field>
          <div className="checks">
            <label><input type="checkbox" checked={form.isDaily} onChange={(e) => set('isDaily', e.target.checked)} /> Daily</label>
            <label><input type="checkbox" checked={form.needsCaptcha} onChange={(e) => set('needsCaptcha', e.target.checked)} /> Captcha</label>
            <label><input type="checkbox" checked={form.active} onChange={(e) => set('active', e.target.checked)} /> Shown to players</label>
          </div>
          {errors.form && <p className="error">{errors.form}</p>}
          <div className="actions">
            <button type="button" className="btn" disabled={busy} onClick={() => void save()}>{task ? 'Save' : 'Create'}</button>
            <button type="button" className="btn btn--ghost" onClick={done}>Cancel</button>
          </div>
        </div>
        <TaskPreview task={form} />
      </div>
    </section>
  );
};

const TasksPage = () => {
  const list = useLoad(() => get<{ items: AdminTask[] }>('/tasks'), 'tasks');
  const [editing, setEditing] = useState<AdminTask | null | 'new'>(null);
  const [error, setError] = useState<string>();
  const tasks = list.data?.items ?? [];
  const move = async (i: number, by: -1 | 1) => {
    const ids = tasks.map((t) => t.id);
    [ids[i], ids[i + by]] = [ids[i + by]!, ids[i]!];
    try {
      await post('/tasks/reorder', { ids });
      list.reload();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  const done = () => {
    setEditing(null);
    list.reload();
  };
  return (
    <>
      <header className="page__head">
        <h1>Tasks</h1>
        <button type="button" className="btn" onClick={() => setEditing('new')}>New task</button>
      </header>
      <p className="muted small">Players read tasks from the database on every list: a change shows at their next refresh of Earn.</p>
      {editing !== null && <TaskEditor key={editing === 'new' ? 'new' : editing.id} task={editing === 'new' ? null : editing} done={done} />}
      {(error ?? list.error) && <p className="error">{error ?? list.error}</p>}
      <div className="table-wrap panel">
        <table data-testid="tasks">
          <thead><tr><th>Order</th><th>#</th><th>Title</th><th>Type</th><th className="num">Reward</th><th>Flags</th><th /></tr></thead>
          <tbody>
            {tasks.map((t, i) => (
              <tr key={t.id} className={t.active ? '' : 'off'}>
                <td className="nowrap">
                  <button type="button" className="icon-btn" aria-label={`Move ${t.title} up`} disabled={i === 0} onClick={() => void move(i, -1)}>↑</button>
                  <button type="button" className="icon-btn" aria-label={`Move ${t.title} down`} disabled={i === tasks.length - 1} onClick={() => void move(i, 1)}>↓</button>
                </td>
                <td>{t.id}</td>
                <td>{t.title}</td>
                <td>{t.type}{t.handleType ? ` · ${t.handleType}` : ''}</td>
                <td className="num">{t.reward}</td>
                <td className="small">{[t.isDaily && 'daily', t.needsCaptcha && 'captcha', !t.active && 'disabled'].filter(Boolean).join(', ')}</td>
                <td><button type="button" className="btn btn--ghost" onClick={() => setEditing(t)}>Edit</button></td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
};

export default TasksPage;
