import type { ReactNode } from 'react';

/** A labelled form field with the server's error for it underneath (the task and shop editors). */
export const Field = ({ label, error, children }: { label: string; error?: string | undefined; children: ReactNode }) => (
  <label className={`field${error ? ' field--bad' : ''}`}>
    <span className="field__label">{label}</span>
    {children}
    {error && <span className="field__error" role="alert">{error}</span>}
  </label>
);
