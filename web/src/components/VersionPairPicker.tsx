/** Two selects choosing the versions a diff compares (actions' and views' version screens). */
export function VersionPairPicker({
  versions,
  from,
  to,
  onFrom,
  onTo,
  labels,
}: {
  versions: readonly { version: number }[];
  from: number;
  to: number;
  onFrom(version: number): void;
  onTo(version: number): void;
  labels: { from: string; to: string };
}) {
  return (
    <div className="inline-fields">
      {(
        [
          ['from', from, onFrom],
          ['to', to, onTo],
        ] as const
      ).map(([key, value, set]) => (
        <label key={key} className="inline-field">
          <span>{labels[key]}</span>
          <select value={value} onChange={(event) => set(Number(event.target.value))}>
            {versions.map((version) => (
              <option key={version.version} value={version.version}>
                v{version.version}
              </option>
            ))}
          </select>
        </label>
      ))}
    </div>
  );
}
