interface TabsProps<T extends string> {
  tabs: readonly { id: T; label: string }[];
  value: T;
  onChange: (id: T) => void;
  small?: boolean;
  label: string;
}

/** A segmented control (Booster/Upgrade, Tasks/Achievements, the task sub-tabs). */
export const Tabs = <T extends string>({ tabs, value, onChange, small, label }: TabsProps<T>) => (
  <div className={small ? 'tabs tabs--small' : 'tabs'} role="tablist" aria-label={label}>
    {tabs.map((t) => (
      <button key={t.id} role="tab" className="tabs__tab" aria-selected={t.id === value} onClick={() => onChange(t.id)}>
        {t.label}
      </button>
    ))}
  </div>
);
