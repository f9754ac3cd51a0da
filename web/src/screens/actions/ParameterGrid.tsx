/** One input per parameter, in the grid the run forms share; each edit replaces that parameter's draft. */
import type { Choice, Parameter } from '../../api/types.ts';
import { useSession } from '../../app/session.tsx';
import { ParameterInput } from './ParameterInput.tsx';
import { choicesOf, type Drafts, initialDrafts } from './parameter-values.ts';

export function ParameterGrid({
  parameters,
  drafts,
  setDrafts,
  errors,
  masterData,
}: {
  parameters: readonly Parameter[];
  drafts: Drafts;
  setDrafts(update: (drafts: Drafts) => Drafts): void;
  errors: Record<string, string>;
  masterData: Record<string, Choice[]>;
}) {
  const { user } = useSession();
  return (
    <div className="param-grid">
      {parameters.map((parameter) => (
        <ParameterInput
          key={parameter.name}
          parameter={parameter}
          draft={drafts[parameter.name] ?? initialDrafts([parameter])[parameter.name]!}
          onChange={(draft) => setDrafts((current) => ({ ...current, [parameter.name]: draft }))}
          error={errors[parameter.name]}
          choices={choicesOf(parameter, masterData)}
          user={user}
        />
      ))}
    </div>
  );
}
